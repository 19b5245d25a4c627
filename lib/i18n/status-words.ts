import type { SubmissionKind, SubmissionStatus } from "@/lib/db";
import type { Decision } from "@/lib/fhir";

/**
 * The ONE status vocabulary of the portal: (kind, status, outcome) → the message key of its words
 * and its tone. Every list, badge, filter, timeline, live board, patient record, work queue and CSV
 * takes its words from here (messages `statusWords.<kind>.<word>`), so one claim reads the same on
 * every screen. The readers' decisions (lib/submissions/apply.ts decisionOf: complete | partial |
 * denied | rejected) are already submission statuses; `pended`, `queued` and `cancelled` too.
 *
 * A decided submission whose benefit is 0.00 is not "Partly approved" nor "Approved with changes": it
 * is "Not payable" (claims) or "No benefit" (authorizations), with the plan-limit reason when the
 * platform gave it (HL7 adjudication reason ar002).
 */

export type StatusTone = "slate" | "green" | "red" | "amber" | "blue";

/** Words for a status; the zero-benefit words apply to decided submissions only. */
export type StatusWord = SubmissionStatus | "zeroBenefit" | "zeroBenefitLimit";

// Type-only import above: this module is used by client components and must not pull drizzle in.
export const TONES: Record<StatusWord, StatusTone> = {
  draft: "slate",
  queued: "blue",
  sent: "blue",
  pended: "amber",
  complete: "green",
  partial: "amber",
  denied: "red",
  rejected: "red",
  failed: "red",
  cancelled: "slate",
  zeroBenefit: "red",
  zeroBenefitLimit: "red",
};

/** What the decision paid, when known: read from the stored response view (lib/fhir readClaimResponse). */
export interface StatusOutcome {
  /** The total benefit in minor units (halalas); undefined when the answer gave none. */
  benefitMinor?: number;
  /** Adjudication reason codes given on any line (e.g. ar002 "benefit limit reached"). */
  reasonCodes?: readonly string[];
  /**
   * The payer granted something: its own outcome says approved (or not required), or a line states a
   * benefit above 0.00 or an approved quantity. Such a decision never reads "No benefit" / "Not
   * payable", whatever its total says (docs/decisions/098: badges follow the decision).
   */
  payerGranted?: boolean;
}

export interface StatusLabel {
  /** Message key under the `statusWords` namespace, e.g. `claim.complete`. */
  key: `${SubmissionKind}.${StatusWord}`;
  word: StatusWord;
  tone: StatusTone;
}

export const STATUS_WORDS = Object.keys(TONES) as StatusWord[];

/** The statuses in the order screens list them (filters, live board, counts). */
export const STATUS_ORDER: readonly SubmissionStatus[] = ["draft", "queued", "sent", "pended", "complete", "partial", "denied", "rejected", "failed", "cancelled"];

const PLAN_LIMIT_REASONS = new Set(["ar002"]);

export function statusWord(status: SubmissionStatus, outcome?: StatusOutcome): StatusWord {
  if ((status === "complete" || status === "partial") && outcome?.benefitMinor === 0 && !outcome.payerGranted) {
    return outcome.reasonCodes?.some((c) => PLAN_LIMIT_REASONS.has(c)) ? "zeroBenefitLimit" : "zeroBenefit";
  }
  return status;
}

/** The label of a submission: use its key with `useTranslations("statusWords")` / `getTranslations("statusWords")`. */
export function statusLabel(kind: SubmissionKind | string | null | undefined, status: SubmissionStatus, outcome?: StatusOutcome): StatusLabel {
  const k: SubmissionKind = kind === "preauthorization" ? "preauthorization" : "claim";
  const word = statusWord(status, outcome);
  return { key: `${k}.${word}`, word, tone: TONES[word] };
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Json => x !== undefined) : []);

const GRANTING_OUTCOMES = new Set(["approved", "not-required"]);

/**
 * The outcome a response view holds (`submissions.response_view`, the reader's ClaimResponseView as
 * JSON, or a DecisionView's `response`): the named benefit total as stated, every reason code on
 * items and added items, and whether the payer granted something (see {@link StatusOutcome}).
 */
export function outcomeOfView(view: unknown): StatusOutcome | undefined {
  const v = obj(view);
  if (!v) return undefined;
  const benefit = obj(obj(v.total)?.benefit);
  const benefitMinor = typeof benefit?.minor === "number" ? benefit.minor : undefined;
  const lines = [...list(v.items), ...list(v.addItems)];
  const reasonCodes = lines.flatMap((line) => list(line.reasons).map((r) => r.code).filter((c): c is string => typeof c === "string"));
  const payerGranted =
    GRANTING_OUTCOMES.has(String(v.adjudicationOutcome)) ||
    lines.some((line) => {
      const lineBenefit = obj(obj(line.amounts)?.benefit)?.minor;
      return (typeof lineBenefit === "number" && lineBenefit > 0) || (typeof line.approvedQuantity === "number" && line.approvedQuantity > 0);
    });
  return { ...(benefitMinor !== undefined ? { benefitMinor } : {}), reasonCodes, ...(payerGranted ? { payerGranted } : {}) };
}

/**
 * The reader's decision (lib/fhir readClaimResponse) as the status it gives the submission — the
 * same table as lib/submissions/apply.ts `decisionOf` (a test holds them equal), with `pended` kept.
 */
export const DECISION_STATUS: Record<Decision, SubmissionStatus> = {
  approved: "complete",
  "partly-approved": "partial",
  denied: "denied",
  pended: "pended",
  error: "rejected",
};

// ---- Payments (docs/decisions/047): what was paid for an adjudicated claim; what billing did with a remittance.

export type PaymentWord = "paid" | "shortPaid" | "awaiting";

export const PAYMENT_TONES: Record<PaymentWord, StatusTone> = { paid: "green", shortPaid: "amber", awaiting: "blue" };

/**
 * A claim's payment words (`statusWords.payment.<word>`): paid in full, paid less than its benefit,
 * or — adjudicated with a benefit — awaiting payment. Undefined for claims with nothing to pay.
 */
export function paymentLabel(status: SubmissionStatus, payment: { paidMinor: number; benefitMinor: number } | undefined, benefitMinor?: number): { key: `payment.${PaymentWord}`; word: PaymentWord; tone: StatusTone } | undefined {
  let word: PaymentWord | undefined;
  if (payment) word = payment.paidMinor < payment.benefitMinor ? "shortPaid" : "paid";
  else if ((status === "complete" || status === "partial") && (benefitMinor ?? 0) > 0) word = "awaiting";
  return word ? { key: `payment.${word}`, word, tone: PAYMENT_TONES[word] } : undefined;
}

/** A remittance's state words (`statusWords.paymentNotice.<word>`): received, marked received (paid notice), cleared. */
export function remittanceWord(r: { paidAt: Date | null; clearedAt: Date | null }): { key: `paymentNotice.${"received" | "paid" | "cleared"}`; tone: StatusTone } {
  if (r.clearedAt) return { key: "paymentNotice.cleared", tone: "green" };
  if (r.paidAt) return { key: "paymentNotice.paid", tone: "blue" };
  return { key: "paymentNotice.received", tone: "amber" };
}
