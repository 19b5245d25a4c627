import { PLATFORM_ERROR_SYSTEM, nphies } from "../lib/fhir";
import { activationOf } from "./catalogue";
import type { SandboxContext } from "./context";
import type { Refusal } from "./refusals";

/** System of the sandbox engine's own error codes (ERR-001…) when they answer a message. */
export const SANDBOX_ERROR_SYSTEM = PLATFORM_ERROR_SYSTEM;

/**
 * The findings that leave the sandbox no business answer to write (no header, no event, no single
 * focus of the event's type): answered with an OperationOutcome, as the exchange answers a message
 * it cannot read. Every other error is answered in the event's business response.
 */
export const ENVELOPE_RULES: ReadonlySet<nphies.RuleId> = new Set(["bundleType", "firstEntryHeader", "eventUnknown", "focusOne", "focusType", "destination"]);

export interface StrictCheck {
  /** The message cannot be answered with a business response. */
  envelope: boolean;
  refusals: Refusal[];
}

/**
 * The exchange's rules a strict sandbox applies before processing a message: the shared rule
 * checker of lib/fhir/nphies (docs/decisions/072), with the sandbox's seed as what the exchange
 * knows (provider, payer and practitioner licences). Warnings are not refusals. Every message is
 * checked, whatever the level, and counted in the conformance tally; only a strict sandbox refuses.
 */
export function strictCheck(bundle: unknown, ctx: SandboxContext, senderLicense: string | undefined): StrictCheck {
  // The sender was matched to its client certificate already: the known providers are it and the clinic.
  const known = new Set([ctx.reference.provider.license, senderLicense].filter((l): l is string => !!l));
  const check = nphies.checkMessage(bundle, {
    isKnownProvider: (license) => known.has(license),
    isKnownPayer: (license) => ctx.reference.payers.some((p) => p.license === license),
    isKnownPractitioner: (license) => ctx.reference.practitioners.has(license),
    today: new Date(ctx.clock.now()),
    codeActivation: activationOf,
  });
  ctx.conformanceTally.record(check);
  const refusals = check.errors.map(
    (f): Refusal => ({ code: f.code, system: nphies.SYSTEMS.adjudicationError, expression: f.expression, text: f.message, severity: f.severity }),
  );
  const envelope = !check.readable || check.errors.some((f) => ENVELOPE_RULES.has(f.rule) && !/^Bundle\.entry\[\d+\]\.resource\.entry/.test(f.expression));
  return { envelope, refusals };
}
