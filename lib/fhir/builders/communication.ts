import type { Communication, CommunicationPayload, Task } from "@medplum/fhirtypes";
import { CANCEL_REASONS, CANCEL_REASON_DISPLAY, NATIONAL_EXCHANGE, type CancelReason } from "../systems";

/**
 * Decision 045: what the clinic sends besides claims — the answer to a payer's information request (a
 * Communication based on its CommunicationRequest, about the claim) and the cancel Task. Strict
 * writers: everything they build is valid R4 (checked against the R4 JSON schema in the tests).
 */

export interface ClaimTarget {
  /** The platform's Claim id, when it accepted the claim. */
  platformId?: string;
  /** The clinic's business identifier (Claim.identifier[0]). */
  identifier?: { system?: string; value: string };
}

/** A Claim named in a Task's focus or a Communication's about: by our identifier when we have it. */
export function claimReference(target: ClaimTarget) {
  if (!target.platformId && !target.identifier?.value) throw new Error("a claim reference needs the platform id or the business identifier");
  return {
    type: "Claim" as const,
    // By our identifier when we have it (decision 073): the exchange answers identifier-only and
    // need never have told us its own id; the platform id only when there is no identifier.
    ...(target.identifier?.value
      ? { identifier: { ...(target.identifier.system ? { system: target.identifier.system } : {}), value: target.identifier.value } }
      : { reference: `Claim/${target.platformId}` }),
  };
}

export interface CancelTaskInput {
  id: string;
  target: ClaimTarget;
  /** `cancel` for an authorization (or a claim still in process), `nullify` for a decided claim. */
  code: "cancel" | "nullify";
  reason: CancelReason;
  providerOrgId: string;
  authoredOn: Date;
  /** The insurer the claim went to (its Organization id): the Task's owner, the one asked to cancel. */
  insurerOrgId?: string;
}

/** What every Task the clinic sends starts with: its id and identifier, a requested order with its task-code, authored by the clinic. */
export function clinicTask(input: { id: string; providerOrgId: string; code: string; authoredOn: Date }): Task {
  return {
    resourceType: "Task",
    id: input.id,
    identifier: [{ system: `${NATIONAL_EXCHANGE_TASK_ID_BASE}/${input.providerOrgId}`, value: input.id }],
    status: "requested",
    intent: "order",
    priority: "routine",
    code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code: input.code }] },
    authoredOn: input.authoredOn.toISOString(),
    requester: { reference: `Organization/${input.providerOrgId}` },
  };
}

/** The cancel-request Task (`Task.code` cancel | nullify, `focus` the Claim, `reasonCode` from task-reason-code). */
export function buildCancelTask(input: CancelTaskInput): Task {
  if (!(CANCEL_REASONS as readonly string[]).includes(input.reason)) throw new Error(`unknown cancel reason ${String(input.reason)}`);
  return {
    ...clinicTask(input),
    focus: claimReference(input.target),
    ...(input.insurerOrgId ? { owner: { reference: `Organization/${input.insurerOrgId}` } } : {}),
    reasonCode: { coding: [{ system: NATIONAL_EXCHANGE.taskReasonSystem, code: input.reason, display: CANCEL_REASON_DISPLAY[input.reason] }] },
  };
}

/** The portal's Task identifiers (`…/task-id/<provider org id>`). */
export const NATIONAL_EXCHANGE_TASK_ID_BASE = "https://clinic.example/fhir/task-id";

export interface CommunicationAttachmentInput {
  contentType: string;
  data: Uint8Array;
  title: string;
  creation: Date;
}

export interface CommunicationInput {
  id: string;
  /**
   * The CommunicationRequest answered (its platform id). Absent: the clinic sends information
   * unasked (guide v2.7 7.4.2.3, docs/decisions/115) — no `basedOn`, only `about`.
   */
  requestId?: string;
  about: ClaimTarget;
  providerOrgId: string;
  /** The payer (Organization id) the answer goes to, when known. */
  recipientOrgId?: string;
  text?: string;
  attachments?: readonly CommunicationAttachmentInput[];
  sent: Date;
  /** The payer's identifier of its CommunicationRequest: named by it, as the exchange does (decision 073). */
  requestIdentifier?: { system?: string; value: string };
  /** The patient (Patient id) the answer is about: the exchange's Communication names its subject. */
  subjectPatientId?: string;
}

/**
 * The answer: a Communication based on the request, about the claim, with text and/or attachments.
 * Without a request it is unsolicited information about the claim or authorization (no `basedOn`).
 */
export function buildCommunication(input: CommunicationInput): Communication {
  const payload: CommunicationPayload[] = [
    ...(input.text?.trim() ? [{ contentString: input.text.trim() }] : []),
    ...(input.attachments ?? []).map((a) => ({
      contentAttachment: {
        contentType: a.contentType,
        data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString("base64"),
        title: a.title,
        creation: a.creation.toISOString(),
      },
    })),
  ];
  if (payload.length === 0) throw new Error("an answer needs text or at least one attachment");
  return {
    resourceType: "Communication",
    id: input.id,
    identifier: [{ system: `https://clinic.example/fhir/communication-id/${input.providerOrgId}`, value: input.id }],
    ...(input.requestIdentifier
      ? { basedOn: [{ type: "CommunicationRequest", identifier: { ...(input.requestIdentifier.system ? { system: input.requestIdentifier.system } : {}), value: input.requestIdentifier.value } }] }
      : input.requestId
        ? { basedOn: [{ reference: `CommunicationRequest/${input.requestId}` }] }
        : {}),
    ...(input.subjectPatientId ? { subject: { reference: `Patient/${input.subjectPatientId}` } } : {}),
    status: "completed",
    category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/communication-category", code: "notification" }] }],
    priority: "routine",
    about: [claimReference(input.about)],
    sent: input.sent.toISOString(),
    sender: { reference: `Organization/${input.providerOrgId}` },
    ...(input.recipientOrgId ? { recipient: [{ reference: `Organization/${input.recipientOrgId}` }] } : {}),
    payload,
  };
}
