import { PROFILE_NAMES } from "./profiles";

/**
 * The exchange's message events (ksa-message-events): for each request the provider sends, the
 * resource its MessageHeader focuses on, who receives it, and the event of the reply.
 */
export interface RequestEventRule {
  /** Resource type of the one entry `MessageHeader.focus` names. */
  focusType: string;
  /** Profile names the focus may declare (any one). Empty: decided by the focus itself (claims). */
  focusProfiles: readonly string[];
  /** `Claim.use` the focus must have, for claim events. */
  claimUse?: "claim" | "preauthorization";
  /** A payer receives it (its licence in `destination.receiver`), or the exchange itself. */
  destination: "payer" | "exchange";
  reply: string;
}

export const REQUEST_EVENTS = {
  "eligibility-request": { focusType: "CoverageEligibilityRequest", focusProfiles: [PROFILE_NAMES.eligibilityRequest], destination: "payer", reply: "eligibility-response" },
  "priorauth-request": { focusType: "Claim", focusProfiles: [], claimUse: "preauthorization", destination: "payer", reply: "priorauth-response" },
  "claim-request": { focusType: "Claim", focusProfiles: [], claimUse: "claim", destination: "payer", reply: "claim-response" },
  "prescriber-request": { focusType: "Claim", focusProfiles: [], claimUse: "preauthorization", destination: "payer", reply: "prescriber-response" },
  "batch-request": { focusType: "Bundle", focusProfiles: [PROFILE_NAMES.bundle], destination: "payer", reply: "batch-response" },
  "poll-request": { focusType: "Task", focusProfiles: [PROFILE_NAMES.pollRequest], destination: "exchange", reply: "poll-response" },
  "cancel-request": { focusType: "Task", focusProfiles: [PROFILE_NAMES.cancelRequest], destination: "payer", reply: "cancel-response" },
  "status-check": { focusType: "Task", focusProfiles: [PROFILE_NAMES.statusCheck], destination: "payer", reply: "status-check-response" },
  communication: { focusType: "Communication", focusProfiles: [PROFILE_NAMES.communication], destination: "payer", reply: "acknowledgement" },
  "payment-notice": { focusType: "PaymentNotice", focusProfiles: [PROFILE_NAMES.paymentNotice], destination: "exchange", reply: "acknowledgement" },
} as const satisfies Record<string, RequestEventRule>;

export type RequestEvent = keyof typeof REQUEST_EVENTS;

export function isRequestEvent(code: unknown): code is RequestEvent {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(REQUEST_EVENTS, code);
}

/** Every reply event the exchange or a payer sends (what a reader may meet). */
export const REPLY_EVENTS = [
  "eligibility-response",
  "priorauth-response",
  "claim-response",
  "prescriber-response",
  "batch-response",
  "poll-response",
  "cancel-response",
  "status-check-response",
  "communication-request",
  "payment-reconciliation",
  "advanced-priorauth",
  "acknowledgement",
  "error-notice",
] as const;
