import type { ClaimResponse, Identifier, OperationOutcome, Parameters, ParametersParameter } from "@medplum/fhirtypes";
import { z } from "zod";
import { readJsonObject } from "@/lib/api";
import type { Caller } from "@/lib/audit";
import { AppError, fhirResponse } from "@/lib/errors";
import { cancelFailure, cancelSubmission, checkSubmissionStatus, statusCheckFailure, type StatusCheckResult } from "@/lib/cancellation";
import { apiClaimAcknowledgement, callerIdentifier, claimOutcomeOf, submitApiClaim } from "@/lib/submissions";
import { DECISION_STATUSES, getSubmission, submissionTimeline, type Submission } from "@/lib/submissions";
import { CANCEL_REASONS, isFhirReadError, readClaimResponse, PLATFORM_ERROR_SYSTEM, PORTAL_SUBMISSION_ID_SYSTEM, PORTAL_SUBMISSION_STATUS_SYSTEM } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";
import type { CallContext } from "./api";
import { parseResource } from "./validation";

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

/** The call as the intake audits it: the submit's one entry is written in the submission's transaction. */
export const intakeAuditOf = (ctx: CallContext) => ({ actor: ctx.actor, action: ctx.audit.action, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}), details: { ...ctx.audit.details } });

/** POST /api/exchange/claims/submit: lib/submissions' submitApiClaim (one validation, idempotency and replay status with the gateway). */
export async function submitClaim(ctx: CallContext, request: Request): Promise<Response> {
  const { config } = ctx.deps;
  const body = await readJsonObject(request, { maxBytes: config.maxBodyBytes });
  const { submission, replay, status } = await submitApiClaim({ db: ctx.db, now: ctx.now, channel: EXCHANGE_API_CHANNEL, createdBy: createdByOf(ctx.client.clientId), audit: intakeAuditOf(ctx) }, body, {
    providerOrgId: config.providerOrgId,
    allowSandboxTestIds: config.allowSandboxTestIds,
    protocol: config.protocol,
    prefix: "Claim",
    requireIdentifier: true,
  });
  ctx.audit.target = { type: "submission", id: submission.id };
  ctx.audit.recorded = true;
  return fhirResponse(acknowledgement(submission, ctx.now), status, {
    Location: statusPath(submission.id),
    ...(replay ? { "X-Idempotent-Replay": "true" } : {}),
  });
}

/** The 202 body: a ClaimResponse with outcome `queued` naming the submission (see docs/decisions/020). */
export const acknowledgement = apiClaimAcknowledgement;

/** GET /api/exchange/claims/{id}/status — only the calling client's own submissions exist for it. */
export async function claimStatus(ctx: CallContext, id: string): Promise<Response> {
  const submission = await ownSubmission(ctx, id);
  ctx.audit.details.submissionStatus = submission.status;
  return fhirResponse(await currentStatus(ctx, submission.id), 200);
}

/** The calling organization's own submission (any other id, or another client's, is unknown: 404). */
async function ownSubmission(ctx: CallContext, id: string): Promise<Submission> {
  const submission = isUuid(id) ? await getSubmission(ctx.db, id) : undefined;
  if (!submission || submission.channel !== EXCHANGE_API_CHANNEL || submission.createdBy !== createdByOf(ctx.client.clientId)) {
    throw new AppError("not_found", "No such submission.", { reason: "unknown_submission" });
  }
  ctx.audit.target = { type: "submission", id: submission.id };
  return submission;
}

/** The status Parameters as stored now (re-read: a cancel or status check may just have changed it). */
async function currentStatus(ctx: CallContext, id: string, check?: StatusCheckResult): Promise<Parameters> {
  const submission = (await getSubmission(ctx.db, id))!;
  const timeline = await submissionTimeline(ctx.db, submission.id);
  const requests = await listInformationRequests(ctx.db, { submissionId: submission.id, filter: "all", kinds: [submission.kind] });
  return statusParameters(submission, timeline, requests, check);
}

function cancellationCaller(ctx: CallContext): Caller {
  return { actor: ctx.actor, userId: createdByOf(ctx.client.clientId), requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) };
}

/** The body of `POST /claims/{id}/cancel`: the exchange's reason (task-reason-code). */
export const CancelParametersSchema = z.object({
  resourceType: z.literal("Parameters"),
  parameter: z.tuple([z.object({ name: z.literal("reason"), valueCode: z.enum(CANCEL_REASONS) })]),
});

/**
 * POST /api/exchange/claims/{id}/cancel — a cancel Task (authorization, claim in process) or a
 * nullify Task (decided claim) to the platform, through the submission's facility. 200 with the
 * status Parameters (status `cancelled`) once the platform completed it; 409 when the platform
 * refused (its words in the answer, the refusal on the timeline) or the submission is not at the
 * platform; 502 when the platform did not answer (nothing changed — safe to repeat).
 */
export async function cancelClaim(ctx: CallContext, request: Request, id: string): Promise<Response> {
  const submission = await ownSubmission(ctx, id);
  const body = parseResource(CancelParametersSchema, await readJsonObject(request, { maxBytes: ctx.deps.config.maxBodyBytes }), "Parameters");
  const reason = body.parameter[0].valueCode;
  ctx.audit.details.reason = reason;
  const result = await cancelSubmission({ db: ctx.db, port: ctx.deps.port, providerOrgId: ctx.deps.config.providerOrgId, clock: () => ctx.now }, cancellationCaller(ctx), {
    id: submission.id,
    reason,
    kinds: [submission.kind],
  });
  if (!result.ok) throw cancelFailure(result, submission);
  if (!result.done) {
    throw new AppError("conflict", `The platform refused the cancellation${result.reason ? `: ${result.reason}` : "."}`, { reason: "cancel_refused" });
  }
  return fhirResponse(await currentStatus(ctx, submission.id), 200);
}

/**
 * POST /api/exchange/claims/{id}/status-check — asks the platform now (REST: a read; messaging: a
 * status-check message) and answers the status Parameters with `platformStatus`, `agree` and
 * `updated` (the portal took newer news the platform had).
 */
export async function statusCheck(ctx: CallContext, id: string): Promise<Response> {
  const submission = await ownSubmission(ctx, id);
  const result = await checkSubmissionStatus({ db: ctx.db, port: ctx.deps.port, providerOrgId: ctx.deps.config.providerOrgId, clock: () => ctx.now }, cancellationCaller(ctx), {
    id: submission.id,
    kinds: [submission.kind],
  });
  // Not at the platform yet: follow /status until it is sent.
  if (!result.ok) throw statusCheckFailure(result);
  ctx.audit.details.agree = result.check.agree;
  return fhirResponse(await currentStatus(ctx, submission.id, result.check), 200);
}

type TimelineRow = Awaited<ReturnType<typeof submissionTimeline>>[number];

/** The status representation: a FHIR Parameters resource (docs/decisions/020). */
export function statusParameters(submission: Submission, timeline: TimelineRow[], informationRequests: readonly InformationRequestRow[] = [], check?: StatusCheckResult): Parameters {
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
    // Decision 045: news that is not a status change (informationRequested, cancelRefused …), a cancellation's reason.
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
  // Decision 045: the payers' information requests about it (what they ask, due, state) — answered in the portal.
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
  // Decision 046: what a status check just heard from the platform, against what the portal believed.
  if (check) {
    parameter.push({
      name: "statusCheck",
      part: [
        { name: "portalBefore", valueCode: check.portal },
        ...(check.platform ? [{ name: "platformStatus", valueCode: check.platform }] : []),
        ...(check.disposition ? [{ name: "disposition", valueString: check.disposition }] : []),
        { name: "agree", valueBoolean: check.agree },
        { name: "updated", valueBoolean: check.updated },
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
