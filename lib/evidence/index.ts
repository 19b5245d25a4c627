/**
 * lib/evidence: information the clinic sends the payer unasked about a claim or an authorization
 * (guide v2.7 7.4.1, 7.4.2.3; docs/decisions/115) — a Communication about it with no
 * CommunicationRequest, text and/or files — and the payer's acknowledgement. Owns the
 * `evidence_messages` table. The solicited answers are lib/information-requests'.
 */
export { EVIDENCE_TEXT_MAX, evidenceSchema, type EvidenceInput } from "./schema";
export { evidenceOf, sendEvidence, submissionKindOf, type EvidenceDeps, type EvidenceResult, type EvidenceRow } from "./service";
export { evidenceAcknowledgementInbound } from "./inbound";
