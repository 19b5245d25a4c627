import { advancedAuthorizationNamed, cancelAdvancedAuthorization } from "./advanced-authorizations";
import { randomUUID } from "node:crypto";
import type { Communication, CommunicationRequest, Resource, Task } from "@medplum/fhirtypes";
import { CANCEL_REASONS, NATIONAL_EXCHANGE, checkStructure } from "../lib/fhir";
import { REVISED_ON_INFORMATION, reissueDecision } from "./reissue";
import type { SandboxContext } from "./context";
import { ApiError } from "./http";
import type { ClaimRecord } from "./store";

/**
 * decision 045 on the payer's side (the sandbox's extension of the spec, both protocols):
 *
 * - **The payer asks for information** — `POST /_admin/claims/{id}/request-information` (trainers,
 *   tests) posts a CommunicationRequest about the claim to the mailbox (sandbox/mailbox.ts: webhook +
 *   `GET /CommunicationRequest/{id}` in REST, a `communication-request` message in polls). A claim
 *   still in process is pended and waits for the answer. Due date: `occurrenceDateTime`, 7 days
 *   after the request unless the trainer gives `dueInDays` (negative: already overdue).
 * - **The clinic answers** — `POST /Communication` (REST) or a `communication` message: a
 *   Communication based on the request (`basedOn`), about the claim, with text and/or attachments.
 *   The sandbox stores it, posts the payer's acknowledgement (a Communication `inResponseTo` the
 *   clinic's, event `acknowledgement`) to the mailbox, and releases the claim: its revised decision
 *   follows one adjudication step later, by webhook or poll like any decision.
 * - **Cancel / nullify** — `POST /Task` (REST) or a `cancel-request` message: a Task with code
 *   `cancel` or `nullify`, `focus` the Claim (platform id or business identifier), `reasonCode` from
 *   the exchange's task-reason-code. Answered with the Task `completed`, or `rejected` with a
 *   `statusReason` when the claim cannot be cancelled (denied, already cancelled).
 */

const DAY_MS = 86_400_000;

export interface InformationRequestInput {
  text?: string;
  attachmentTypes?: string[];
  dueInDays?: number;
}

/** The claim a reference names (platform id, `Claim/{id}` in any form, or the clinic's identifier). */
export function claimOf(ctx: SandboxContext, providerOrgId: string, reference: { reference?: string; identifier?: { system?: string; value?: string } } | undefined): ClaimRecord | undefined {
  const id = /(?:^|\/)Claim\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(reference?.reference ?? "")?.[1];
  let record = id ? ctx.store.getClaim(id) : undefined;
  if (!record && reference?.identifier?.value) {
    record = ctx.store.allClaims().find((r) => r.providerOrgId === providerOrgId && JSON.parse(r.identifierKey)[2] === reference.identifier!.value);
  }
  return record?.providerOrgId === providerOrgId ? record : undefined;
}

/** The payer's CommunicationRequest about a claim, posted to the mailbox. */
export function requestInformation(ctx: SandboxContext, claimId: string, input: InformationRequestInput = {}): { id: string; held: boolean } | undefined {
  const record = ctx.store.getClaim(claimId);
  if (!record) return undefined;
  const now = ctx.clock.now();
  const payerId = ctx.reference.coverages.get(record.coverageId)?.payerId ?? "unknown";
  const identifier = JSON.parse(record.identifierKey) as [string, string, string];
  const text = input.text?.trim() || "Please send the medical report supporting the services claimed.";
  const types = input.attachmentTypes?.length ? input.attachmentTypes : ["Medical report"];
  const id = randomUUID();
  const request: CommunicationRequest = {
    resourceType: "CommunicationRequest",
    id,
    identifier: [{ system: `${ctx.baseUrl()}/fhir/communication-request-id/${payerId}`, value: id }],
    status: "active",
    category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/communication-category", code: "instruction" }] }],
    priority: "routine",
    about: [{ type: "Claim", reference: `Claim/${record.id}`, identifier: { system: identifier[1], value: identifier[2] } }],
    subject: { reference: record.claim.patient.reference },
    payload: [{ contentString: text }, ...types.map((t) => ({ contentAttachment: { contentType: "application/pdf", title: t } }))],
    occurrenceDateTime: new Date(now + (input.dueInDays ?? 7) * DAY_MS).toISOString(),
    authoredOn: new Date(now).toISOString(),
    requester: { reference: `Organization/${payerId}` },
    sender: { reference: `Organization/${payerId}` },
    recipient: [{ reference: record.claim.provider.reference }],
  };
  checkStructure(request, "CommunicationRequest");
  const held = ctx.engine.hold(record.id);
  ctx.mailbox.post(record.providerOrgId, request, "communication-request");
  return { id, held };
}

/** The clinic's answer: stored, acknowledged by the payer (mailbox), and the held claim released. */
export function receiveCommunication(ctx: SandboxContext, providerOrgId: string, body: Record<string, unknown>): Communication {
  const structure = (() => {
    try {
      return checkStructure(body, "Communication");
    } catch (error) {
      const e = error as { path?: string; reason?: string };
      throw ApiError.plain(400, "structure", `${e.path ?? "Communication"}: ${e.reason ?? "not valid R4"}`);
    }
  })();
  void structure;
  const communication = body as unknown as Communication;
  // The request by its id, or by the payer's identifier as the exchange names it (decision 098).
  const basedOn = communication.basedOn?.[0];
  const requestId =
    /(?:^|\/)CommunicationRequest\/([^/]+)$/.exec(basedOn?.reference ?? "")?.[1] ??
    (basedOn?.identifier?.value
      ? ctx.mailbox
          .forClinic(providerOrgId)
          .find((m) => m.resourceType === "CommunicationRequest" && (m.resource as CommunicationRequest).identifier?.some((i) => i.value === basedOn.identifier!.value))?.id
      : undefined);
  const request = requestId ? ctx.mailbox.read(providerOrgId, "CommunicationRequest", requestId) : undefined;
  // Without basedOn the communication is unsolicited (the clinic sends information of its own
  // accord, about a claim): accepted and acknowledged like an answer, releasing nothing.
  const unsolicited = communication.basedOn === undefined || communication.basedOn.length === 0;
  if (!request && !unsolicited) throw ApiError.plain(422, "required", "Communication.basedOn: must name a CommunicationRequest this clinic received");
  if (!communication.payload?.length) throw ApiError.plain(422, "required", "Communication.payload: an answer needs text or attachments");
  const requestAbout = (request?.resource as CommunicationRequest | undefined)?.about?.[0] as { reference?: string; identifier?: { value?: string } } | undefined;
  const record = claimOf(ctx, providerOrgId, (communication.about?.[0] as never) ?? requestAbout) ?? claimOf(ctx, providerOrgId, requestAbout);
  // The clinic asks the payer to modify or extend an advanced authorization (guide v2.7 Table 38): kept and acknowledged; the payer reissues it (admin).
  const approval = !record && unsolicited ? advancedAuthorizationNamed(ctx, providerOrgId, communication.about?.[0] as never) : undefined;
  if (approval) {
    const id = randomUUID();
    const stored: Communication = { ...communication, id, meta: { versionId: "1", lastUpdated: new Date(ctx.clock.now()).toISOString() } };
    ctx.store.postMail({ id, resourceType: "Communication", providerOrgId: `received:${providerOrgId}`, event: "communication", resource: stored as Resource, createdAt: new Date(ctx.clock.now()).toISOString() });
    ctx.mailbox.post(
      providerOrgId,
      {
        resourceType: "Communication",
        id: randomUUID(),
        status: "completed",
        inResponseTo: [{ reference: `Communication/${communication.id ?? id}` }],
        about: [{ type: "ClaimResponse", identifier: approval.identifier![0]! }],
        sent: new Date(ctx.clock.now()).toISOString(),
        ...(approval.insurer ? { sender: approval.insurer } : {}),
        payload: [{ contentString: "Received: the payer will review the advanced authorization and answer with a reissued one." }],
      } as Communication,
      "acknowledgement",
    );
    return stored;
  }
  if (!record) throw ApiError.plain(422, "not-found", "Communication.about: no claim of this clinic");
  const id = randomUUID();
  const stored: Communication = { ...communication, id, meta: { versionId: "1", lastUpdated: new Date(ctx.clock.now()).toISOString() } };
  ctx.store.postMail({ id, resourceType: "Communication", providerOrgId: `received:${providerOrgId}`, event: "communication", resource: stored as Resource, createdAt: new Date(ctx.clock.now()).toISOString() });
  const payerId = ctx.reference.coverages.get(record.coverageId)?.payerId ?? "unknown";
  const acknowledgement: Communication = {
    resourceType: "Communication",
    id: randomUUID(),
    status: "completed",
    inResponseTo: [{ reference: `Communication/${communication.id ?? id}` }],
    ...(request ? { basedOn: [{ reference: `CommunicationRequest/${requestId}` }] } : {}),
    about: [{ type: "Claim", reference: `Claim/${record.id}` }],
    sent: new Date(ctx.clock.now()).toISOString(),
    sender: { reference: `Organization/${payerId}` },
    recipient: [{ reference: record.claim.provider.reference }],
    payload: [{ contentString: "Received: the payer will review the claim with the information sent." }],
  };
  ctx.mailbox.post(providerOrgId, acknowledgement, "acknowledgement");
  if (request) ctx.engine.release(record.id);
  // Information sent unasked about a partly approved decision (guide v2.7 7.4.2.3): the payer
  // revises it and reissues the decision, approved in full (SANDBOX_EVIDENCE_REISSUE=off: acknowledged only).
  if (unsolicited && ctx.evidenceReissue === "approve" && record.status === "partial") reissueDecision(ctx, record.id, { outcome: "approved", reason: REVISED_ON_INFORMATION, withoutReason: false });
  return stored;
}

/** A cancel/nullify Task: answered with the Task completed or rejected (with its reason). */
export function cancelByTask(ctx: SandboxContext, providerOrgId: string, body: Record<string, unknown>): Task {
  try {
    checkStructure(body, "Task");
  } catch (error) {
    const e = error as { path?: string; reason?: string };
    throw ApiError.plain(400, "structure", `${e.path ?? "Task"}: ${e.reason ?? "not valid R4"}`);
  }
  const task = body as unknown as Task;
  const code = task.code?.coding?.find((c) => c.system === NATIONAL_EXCHANGE.taskCodeSystem)?.code;
  if (code !== "cancel" && code !== "nullify") throw ApiError.plain(422, "code-invalid", `Task.code: must be cancel or nullify (${NATIONAL_EXCHANGE.taskCodeSystem})`);
  const reason = task.reasonCode?.coding?.find((c) => c.system === NATIONAL_EXCHANGE.taskReasonSystem)?.code;
  if (!reason || !(CANCEL_REASONS as readonly string[]).includes(reason)) {
    throw ApiError.plain(422, "code-invalid", `Task.reasonCode: one of ${CANCEL_REASONS.join(", ")} (${NATIONAL_EXCHANGE.taskReasonSystem})`);
  }
  // An advanced authorization is cancelled by its identifier in Task.focus (guide v2.7 section 7.9.2).
  const advanced = cancelAdvancedAuthorization(ctx, providerOrgId, task.focus as never);
  if (advanced) {
    return { ...task, id: task.id ?? randomUUID(), status: advanced.status, lastModified: new Date(ctx.clock.now()).toISOString(), ...(advanced.why ? { statusReason: { text: advanced.why } } : {}) };
  }
  const record = claimOf(ctx, providerOrgId, task.focus as never);
  if (!record) throw ApiError.plain(404, "not-found", "Task.focus: no claim of this clinic");
  const answer = (status: "completed" | "rejected", why?: string): Task => ({
    ...task,
    id: task.id ?? randomUUID(),
    status,
    lastModified: new Date(ctx.clock.now()).toISOString(),
    ...(why ? { statusReason: { text: why } } : {}),
  });
  if (record.status === "cancelled") return answer("rejected", "The claim is already cancelled");
  if (record.status === "denied") return answer("rejected", "A denied claim cannot be cancelled");
  ctx.engine.cancel(record.id);
  return answer("completed");
}
