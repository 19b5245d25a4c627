import { ADJUDICATION_REASONS, CODE_SYSTEMS, SANDBOX_ADJUDICATION_REASON_SYSTEM, type AdjudicationReasonCode, type CodedView } from "@/lib/fhir";

/** Systems whose reason codes the portal has words for (HL7's ar001/ar002, the sandbox's own). */
const KNOWN_SYSTEMS = new Set<string | undefined>([undefined, CODE_SYSTEMS.adjudicationReason, SANDBOX_ADJUDICATION_REASON_SYSTEM]);

/**
 * An adjudication reason in the UI language, plus the platform's own text when it says something
 * else (kept as a secondary line so nothing the payer wrote is lost). Unknown codes: the
 * platform's text, else the code.
 */
export function reasonWords(reason: CodedView, locale: "en" | "ar"): { words: string; platformText?: string; known: boolean } {
  const platformText = reason.display ?? reason.text;
  const known = reason.code !== undefined && KNOWN_SYSTEMS.has(reason.system) && Object.prototype.hasOwnProperty.call(ADJUDICATION_REASONS, reason.code);
  if (known) {
    const words = ADJUDICATION_REASONS[reason.code as AdjudicationReasonCode][locale];
    return { words, known, ...(platformText && platformText !== words ? { platformText } : {}) };
  }
  return { words: platformText ?? reason.code ?? "—", known: false };
}
