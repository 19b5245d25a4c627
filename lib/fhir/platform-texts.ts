import { ADJUDICATION_REASONS, type AdjudicationOutcome, type AdjudicationReasonCode } from "./systems";

/**
 * The fixed texts the platform (our sandbox, which writes them from here) puts into
 * `ClaimResponse.disposition`, `CoverageEligibilityResponse.disposition`,
 * `PaymentReconciliation.disposition` and `processNote.text`, and the readers that recognise them.
 * They carry no code of their own, so the text itself is the key: the portal recognises a text
 * written from these patterns and shows it in the page's language (lib/i18n/platform-words.ts),
 * keeping the platform's own text as a secondary line. Anything else is shown as the platform wrote it.
 */

/** Whole dispositions that never vary. */
export const FIXED_DISPOSITIONS = {
  claimComplete: "Claim adjudicated and paid according to the plan",
  preauthComplete: "Authorization approved in full",
  queued: "Received; adjudication pending",
  pended: "Pended for manual review",
  coverageInForce: "Coverage in force",
  coverageInactive: "Coverage not in force on the service date",
  remittance: "Payment of adjudicated claims",
  referenceMismatch: "Claim denied: it no longer matches the platform's reference data",
} as const;
export type FixedDisposition = keyof typeof FIXED_DISPOSITIONS;

/** How a disposition names a reason ("Claim denied: not covered by the plan; …"). */
export const DISPOSITION_REASON_PHRASES: Readonly<Record<AdjudicationReasonCode, string>> = {
  ar001: "not covered by the plan",
  ar002: "annual benefit limit reached",
  "price-list": "reduced to the price list",
  "preauth-required": "prior authorization required",
  "coverage-inactive": "coverage not in force on the service date",
  "quantity-limit": "reduced to the quantity or days-supply limit",
  "package-included": "included in the package price",
};

export type DispositionUse = "claim" | "preauthorization";

export type DispositionFacts =
  | { kind: "fixed"; key: FixedDisposition }
  | { kind: "denied"; use: DispositionUse; reasons: AdjudicationReasonCode[] }
  | { kind: "partial"; use: DispositionUse; affected: number; items: number; reasons: AdjudicationReasonCode[] };

const WHAT: Record<DispositionUse, string> = { claim: "Claim", preauthorization: "Authorization" };

/** The platform's disposition text for these facts (the sandbox writes its answers with this). */
export function writeDisposition(facts: DispositionFacts): string {
  if (facts.kind === "fixed") return FIXED_DISPOSITIONS[facts.key];
  const reasons = facts.reasons.map((r) => DISPOSITION_REASON_PHRASES[r]).join("; ");
  if (facts.kind === "denied") return `${WHAT[facts.use]} denied: ${reasons}`;
  return `${WHAT[facts.use]} partially approved: ${facts.affected} of ${facts.items} item(s) ${reasons}`;
}

// The reverse indexes are built on first use, not at load (a page importing lib/fhir/browser for
// something else then carries none of these texts; docs/decisions/055).
const once = <T>(build: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= build());
};
const PHRASE_CODE = once(() => new Map<string, AdjudicationReasonCode>(Object.entries(DISPOSITION_REASON_PHRASES).map(([code, phrase]) => [phrase, code as AdjudicationReasonCode])));
const FIXED_KEY = once(() => new Map<string, FixedDisposition>(Object.entries(FIXED_DISPOSITIONS).map(([key, text]) => [text, key as FixedDisposition])));

function reasonsOf(list: string): AdjudicationReasonCode[] | undefined {
  const codes = list.split("; ").map((p) => PHRASE_CODE().get(p));
  return codes.length > 0 && codes.every((c) => c !== undefined) ? (codes as AdjudicationReasonCode[]) : undefined;
}

/** The facts behind a disposition written by {@link writeDisposition}; undefined for any other text. */
export function readDisposition(text: string): DispositionFacts | undefined {
  const fixed = FIXED_KEY().get(text.trim());
  if (fixed) return { kind: "fixed", key: fixed };
  const denied = /^(Claim|Authorization) denied: (.+)$/.exec(text.trim());
  if (denied) {
    const reasons = reasonsOf(denied[2]!);
    return reasons ? { kind: "denied", use: denied[1] === "Claim" ? "claim" : "preauthorization", reasons } : undefined;
  }
  const partial = /^(Claim|Authorization) partially approved: (\d+) of (\d+) item\(s\) (.+)$/.exec(text.trim());
  if (partial) {
    const reasons = reasonsOf(partial[4]!);
    return reasons
      ? { kind: "partial", use: partial[1] === "Claim" ? "claim" : "preauthorization", affected: Number(partial[2]), items: Number(partial[3]), reasons }
      : undefined;
  }
  return undefined;
}

/** The overall result as a process note, in Arabic (national style). */
export const OVERALL_NOTES_AR: Readonly<Record<AdjudicationOutcome, string>> = {
  approved: "تمت الموافقة على المطالبة كاملة وفق المنافع",
  partial: "تمت الموافقة جزئياً",
  rejected: "تم رفض المطالبة",
  pended: "المطالبة قيد المراجعة اليدوية",
  "not-required": "لا تتطلب موافقة",
};

export type NoteFacts =
  | { kind: "itemReason"; item: number; reason: AdjudicationReasonCode }
  | { kind: "itemReplaced"; item: number }
  | { kind: "overall"; outcome: AdjudicationOutcome };

/** A process note's text for these facts (the sandbox's national style writes its notes with this). */
export function writeNote(facts: NoteFacts): string {
  if (facts.kind === "itemReason") return `Item ${facts.item}: ${ADJUDICATION_REASONS[facts.reason].en}`;
  if (facts.kind === "itemReplaced") return `Item ${facts.item} replaced by the contracted service at the price-list rate`;
  return OVERALL_NOTES_AR[facts.outcome];
}

const REASON_BY_EN = once(() => new Map<string, AdjudicationReasonCode>(Object.entries(ADJUDICATION_REASONS).map(([code, words]) => [words.en, code as AdjudicationReasonCode])));
const OUTCOME_BY_NOTE = once(() => new Map<string, AdjudicationOutcome>(Object.entries(OVERALL_NOTES_AR).map(([outcome, text]) => [text, outcome as AdjudicationOutcome])));

/** The facts behind a note written by {@link writeNote}; undefined for any other text. */
export function readNote(text: string): NoteFacts | undefined {
  const t = text.trim();
  const outcome = OUTCOME_BY_NOTE().get(t);
  if (outcome) return { kind: "overall", outcome };
  const replaced = /^Item (\d+) replaced by the contracted service at the price-list rate$/.exec(t);
  if (replaced) return { kind: "itemReplaced", item: Number(replaced[1]) };
  const reason = /^Item (\d+): (.+)$/.exec(t);
  const code = reason ? REASON_BY_EN().get(reason[2]!) : undefined;
  return reason && code ? { kind: "itemReason", item: Number(reason[1]), reason: code } : undefined;
}
