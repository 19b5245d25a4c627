import type { ClaimResponse, Identifier, OperationOutcome, Parameters, ParametersParameter } from "@medplum/fhirtypes";
import { AppError, fhirResponse, readJsonObject } from "@/lib/api";
import {
  DECISION_STATUSES,
  apiClaimAcknowledgement,
  callerIdentifier,
  claimOutcomeOf,
  getSubmission,
  submissionTimeline,
  submitApiClaim,
  type Submission,
} from "@/lib/exchange";
import { isFhirReadError, readClaimResponse, PLATFORM_ERROR_SYSTEM, PORTAL_SUBMISSION_ID_SYSTEM, PORTAL_SUBMISSION_STATUS_SYSTEM } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";
import type { CallContext } from "./api";

import { listInformationRequests, type InformationRequestRow } from "@/lib/information-requests";

export const EXCHANGE_API_CHANNEL = "exchange-api";
/** @deprecated name: the one system is PORTAL_SUBMISSION_ID_SYSTEM (lib/fhir/systems.ts). */
export const SUBMISSION_ID_SYSTEM = PORTAL_SUBMISSION_ID_SYSTEM;
/** System of the portal status carried in the status Parameters (lib/fhir/systems.ts). */
export const SUBMISSION_STATUS_SYSTEM = PORTAL_SUBMISSION_STATUS_SYSTEM;

export function createdByOf(clientId: string): string {
  return `org:${clientId}`;
}

export function statusPath(submissionId: string): string {
  return `/api/exchange/claims/${submissionId}/status`;
}

/** POST /api/exchange/claims/submit: lib/exchange's submitApiClaim (one validation, idempotency and replay status with the gateway). */
export async function submitClaim(ctx: CallContext, request: Request): Promise<Response> {
  const { config } = ctx.deps;
  const body = await readJsonObject(request, { maxBytes: config.maxBodyBytes });
  const { submission, replay, status } = await submitApiClaim({ db: ctx.db, now: ctx.now, channel: EXCHANGE_API_CHANNEL, createdBy: createdByOf(ctx.client.clientId) }, body, {
    providerOrgId: config.providerOrgId,
    allowSandboxTestIds: config.allowSandboxTestIds,
    prefix: "Claim",
    requireIdentifier: true,
  });
  ctx.audit.target = { type: "submission", id: submission.id };
  ctx.audit.details.kind = submission.kind;
  ctx.audit.details.replay = replay;
  return fhirResponse(acknowledgement(submission, ctx.now), status, {
    Location: statusPath(submission.id),
    ...(replay ? { "X-Idempotent-Replay": "true" } : {}),
  });
}

/** The 202 body: a ClaimResponse with outcome `queued` naming the submission (see docs/decisions/020). */
export const acknowledgement = apiClaimAcknowledgement;

/** GET /api/exchange/claims/{id}/status — only the calling client's own submissions exist for it. */
export async function claimStatus(ctx: CallContext, id: string): Promise<Response> {
  const submission = isUuid(id) ? await getSubmission(ctx.db, id) : undefined;
  if (!submission || submission.channel !== EXCHANGE_API_CHANNEL || submission.createdBy !== createdByOf(ctx.client.clientId)) {
    throw new AppError("not_found", "No such submission.", { reason: "unknown_submission" });
  }
  ctx.audit.target = { type: "submission", id: submission.id };
  ctx.audit.details.submissionStatus = submission.status;
  const timeline = await submissionTimeline(ctx.db, submission.id);
  const requests = await listInformationRequests(ctx.db, { submissionId: submission.id, filter: "all", kinds: [submission.kind] });
  return fhirResponse(statusParameters(submission, timeline, requests), 200);
}

type TimelineRow = Awaited<ReturnType<typeof submissionTimeline>>[number];

/** The status representation: a FHIR Parameters resource (docs/decisions/020). */
export function statusParameters(submission: Submission, timeline: TimelineRow[], informationRequests: readonly InformationRequestRow[] = []): Parameters {
  const claim = submission.claim as { identifier?: Identifier[] };
  const own = callerIdentifier(claim.identifier?.filter((i) => i.system !== submission.identifierSystem));
  const parameter: ParametersParameter[] = [
    { name: "submission", valueId: submission.id },
    { name: "use", valueCode: submission.kind },
    { name: "status", valueCoding: { system: SUBMISSION_STATUS_SYSTEM, code: submission.status } },
    { name: "outcome", valueCode: claimOutcomeOf(submission.status) },
  ];
  if (submission.identifierSystem && submission.identifierValue) {
    parameter.push({ name: "identifier", valueIdentifier: { system: submission.identifierSystem, value: submission.identifierValue } });
  }
  if (own) parameter.push({ name: "clientIdentifier", valueIdentifier: own });
  if (submission.platformId) parameter.push({ name: "platformClaim", valueReference: { reference: `Claim/${submission.platformId}` } });
  parameter.push({ name: "created", valueInstant: submission.createdAt.toISOString() });
  parameter.push({ name: "updated", valueInstant: submission.updatedAt.toISOString() });
  if (submission.attempts > 0) parameter.push({ name: "attempts", valueInteger: submission.attempts });
  for (const event of timeline) {
    const part: ParametersParameter[] = [
      { name: "at", valueInstant: event.at.toISOString() },
      ...(event.fromStatus ? [{ name: "from", valueCode: event.fromStatus }] : []),
      { name: "to", valueCode: event.toStatus },
      { name: "source", valueCode: event.source },
    ];
    const detail = event.detail ?? {};
    if (typeof detail.code === "string") part.push({ name: "code", valueCode: detail.code });
    // Issue 18: news that is not a status change (informationRequested, cancelRefused …), a cancellation's reason.
    if (typeof detail.note === "string") part.push({ name: "note", valueCode: detail.note });
    if (typeof detail.cancelReason === "string") part.push({ name: "cancelReason", valueCode: detail.cancelReason });
    if (typeof detail.status === "number") part.push({ name: "httpStatus", valueInteger: detail.status });
    parameter.push({ name: "event", part });
  }
  if ((submission.status === "rejected" || submission.status === "failed") && submission.errors?.length) {
    const issues: OperationOutcome["issue"] = submission.errors.map((e) => ({
      severity: "error",
      code: "processing",
      ...(e.code ? { details: { coding: [{ system: PLATFORM_ERROR_SYSTEM, code: e.code }], ...(e.resolution ? { text: e.resolution } : {}) } } : {}),
      ...(e.diagnostics ? { diagnostics: e.diagnostics } : {}),
      ...(e.field ? { expression: [e.field] } : {}),
    }));
    parameter.push({ name: "errors", resource: { resourceType: "OperationOutcome", issue: issues } });
  }
  // Issue 18: the payers' information requests about it (what they ask, due, state) — answered in the portal.
  for (const r of informationRequests) {
    parameter.push({
      name: "informationRequest",
      part: [
        { name: "id", valueId: r.id },
        { name: "state", valueCode: r.status },
        ...r.asks.map((a) => ({ name: "asks", valueString: a })),
        ...r.attachmentTypes.map((a) => ({ name: "document", valueString: a })),
        ...(r.dueAt ? [{ name: "due", valueDateTime: r.dueAt.toISOString() }] : []),
        { name: "overdue", valueBoolean: r.overdue },
        { name: "received", valueInstant: r.receivedAt.toISOString() },
        ...(r.answeredAt ? [{ name: "answered", valueInstant: r.answeredAt.toISOString() }] : []),
        ...(r.acknowledgedAt ? [{ name: "acknowledged", valueInstant: r.acknowledgedAt.toISOString() }] : []),
      ],
    });
  }
  if ((DECISION_STATUSES as readonly string[]).includes(submission.status) && submission.response) {
    // Through the tolerant reader (typed, no cast); a stored answer it cannot read is left out.
    const stored = storedClaimResponse(submission.response);
    if (stored) parameter.push({ name: "claimResponse", resource: stored });
  }
  return { resourceType: "Parameters", id: submission.id, parameter };
}

function storedClaimResponse(response: Record<string, unknown>): ClaimResponse | undefined {
  try {
    return readClaimResponse(response).raw;
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}
