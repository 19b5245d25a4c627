import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Db, SubmissionKind } from "@/lib/db";
import { submitApiClaim } from "@/lib/submissions";
import { IllegalTransitionError, SubmissionNotFoundError, claimIdentifierSystem, getSubmission, statedTotals, submissionTimeline, type Submission } from "@/lib/submissions";
import { CANCEL_REASONS, PLATFORM_CURRENCY, fromMinorUnits } from "@/lib/fhir";
import { listInformationRequests } from "@/lib/information-requests";
import type { GatewayContext } from "./run";
import { isUuid } from "@/lib/ids";
import { latestSubmissionByClaimIdentifier, submissionByIdentifier } from "@/lib/submissions";

/** The channel every gateway submission carries (`submissions.channel`). */
export const GATEWAY_CHANNEL = "gateway";

/** `submissions.created_by` of a gateway submission: the token, never its secret. */
export function createdByToken(tokenId: string): string {
  return `gateway:${tokenId}`;
}

/**
 * Submits a FHIR Claim for `kind` through lib/submissions' submitApiClaim — the same validation
 * (national ID included), idempotency (token + the caller's identifier) and replay status as the
 * exchange API. Field paths are under `prefix` (`data.claim` or `Claim`). The intake writes the
 * call's audit entry in the submission's transaction (the kernel writes none for the success).
 */
export async function submitGatewayClaim(ctx: GatewayContext, input: unknown, kind: SubmissionKind | undefined, prefix: string) {
  const submitted = await submitApiClaim({ db: ctx.db, now: ctx.now, channel: GATEWAY_CHANNEL, createdBy: createdByToken(ctx.token.id), audit: { actor: ctx.actor, action: ctx.audit.action, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}), details: { ...ctx.audit.details } } }, input, {
    providerOrgId: ctx.config.providerOrgId,
    allowSandboxTestIds: ctx.config.allowSandboxTestIds,
    protocol: ctx.config.protocol,
    kind,
    prefix,
    requireIdentifier: false,
  });
  ctx.audit.target = { type: "submission", id: submitted.submission.id };
  ctx.audit.recorded = true;
  return submitted;
}

/** What a submit task answers. */
export function submittedResult(submission: Submission, replay: boolean, agent: string) {
  return {
    submissionId: submission.id,
    kind: submission.kind,
    status: submission.status,
    identifier: submission.identifierSystem && submission.identifierValue ? { system: submission.identifierSystem, value: submission.identifierValue } : null,
    replay,
    next: { agent, task: "status", data: { submissionId: submission.id } },
  };
}

/** Which submission: its id, or an identifier (exactly one of them). */
const submissionReference = {
  submissionId: z.string().refine(isUuid, "expected a submission id (UUID)").optional(),
  identifier: z.string().trim().min(1).max(200).optional(),
};
const exactlyOne = (d: { submissionId?: string; identifier?: string }) => (d.submissionId === undefined) !== (d.identifier === undefined);
const exactlyOneMessage = { message: "give either submissionId or identifier (exactly one)", path: ["submissionId"] };

/** `status` and `check`: which submission. One object, so that a refusal names the field (a union would name only `data`). */
export const statusDataSchema = z.strictObject(submissionReference).refine(exactlyOne, exactlyOneMessage);

/** Decision 046: `cancel` — which submission, and the exchange's reason code (task-reason-code). */
export const cancelDataSchema = z.strictObject({ ...submissionReference, reason: z.enum(CANCEL_REASONS) }).refine(exactlyOne, exactlyOneMessage);

/**
 * Finds a submission of `kind` by its id or by an identifier: the portal's business identifier
 * (`Claim.identifier[0].value`, fixed when queued; any channel — an assistant may ask about a claim
 * made in the pages) or the caller's own Claim identifier value (submissions of this token).
 */
export async function findSubmission(ctx: GatewayContext, kind: SubmissionKind, data: { submissionId?: string; identifier?: string }): Promise<Submission | undefined> {
  const { db } = ctx;
  if (data.submissionId !== undefined) {
    const row = await getSubmission(db, data.submissionId);
    return row?.kind === kind ? row : undefined;
  }
  const system = claimIdentifierSystem(ctx.config.providerOrgId);
  const portal = await submissionByIdentifier(db, kind, { system, value: data.identifier ?? "" });
  if (portal) return portal;
  return latestSubmissionByClaimIdentifier(db, kind, { channel: GATEWAY_CHANNEL, createdBy: createdByToken(ctx.token.id) }, data.identifier ?? "");
}

/**
 * The answer's totals by adjudication category as the payer stated them (lib/submissions
 * statedTotals, the one reading of a decision's money), in the gateway's {value, currency} form;
 * a category the payer did not state is absent.
 */
function adjudicationTotals(submission: Submission): Record<string, { value: number; currency: string }> {
  const stated = statedTotals(submission.response, submission.responseView) ?? {};
  const names: Record<string, number | undefined> = {
    submitted: stated.submittedMinor,
    eligible: stated.eligibleMinor,
    copay: stated.copayMinor,
    deductible: stated.deductibleMinor,
    tax: stated.taxMinor,
    discount: stated.discountMinor,
    benefit: stated.benefitMinor,
    patientShare: stated.shareMinor,
  };
  const currency = submission.currency ?? PLATFORM_CURRENCY;
  return Object.fromEntries(Object.entries(names).flatMap(([k, minor]) => (minor === undefined ? [] : [[k, { value: fromMinorUnits(minor), currency }]])));
}

/** The status answer: state, decision, platform errors (with their resolution) and the timeline. */
export async function statusResult(db: Db, submission: Submission) {
  const timeline = await submissionTimeline(db, submission.id);
  const requests = await listInformationRequests(db, { submissionId: submission.id, filter: "all", kinds: [submission.kind] });
  const response = submission.response;
  const preAuthRef = response && typeof response.preAuthRef === "string" ? response.preAuthRef : undefined;
  return {
    submissionId: submission.id,
    kind: submission.kind,
    status: submission.status,
    channel: submission.channel,
    identifier: submission.identifierSystem && submission.identifierValue ? { system: submission.identifierSystem, value: submission.identifierValue } : null,
    platformClaimId: submission.platformId,
    total: submission.totalMinor === null ? null : { value: fromMinorUnits(submission.totalMinor), currency: submission.currency ?? PLATFORM_CURRENCY },
    attempts: submission.attempts,
    createdAt: submission.createdAt.toISOString(),
    updatedAt: submission.updatedAt.toISOString(),
    decidedAt: submission.decidedAt?.toISOString() ?? null,
    decision: response
      ? {
          outcome: typeof response.outcome === "string" ? response.outcome : null,
          disposition: typeof response.disposition === "string" ? response.disposition : null,
          ...(preAuthRef ? { preAuthRef } : {}),
          totals: adjudicationTotals(submission),
        }
      : null,
    errors: (submission.errors ?? []).map((e) => ({
      code: e.code ?? null,
      httpStatus: e.status ?? null,
      diagnostics: e.diagnostics ?? null,
      resolution: e.resolution ?? null,
      field: e.field ?? null,
    })),
    timeline: timeline.map((e) => ({
      eventId: e.id,
      at: e.at.toISOString(),
      from: e.fromStatus,
      to: e.toStatus,
      source: e.source,
      ...(typeof e.detail?.code === "string" ? { code: e.detail.code } : {}),
      ...(typeof e.detail?.status === "number" ? { httpStatus: e.detail.status } : {}),
      // Decision 046: news that is not a status change, and a cancellation's reason.
      ...(typeof e.detail?.note === "string" ? { note: e.detail.note } : {}),
      ...(typeof e.detail?.cancelReason === "string" ? { cancelReason: e.detail.cancelReason } : {}),
    })),
    // Decision 045: the payers' information requests about it (answered in the portal).
    informationRequests: requests.map((r) => ({
      id: r.id,
      state: r.status,
      asks: r.asks,
      documents: r.attachmentTypes,
      dueAt: r.dueAt?.toISOString() ?? null,
      overdue: r.overdue,
      receivedAt: r.receivedAt.toISOString(),
      answeredAt: r.answeredAt?.toISOString() ?? null,
      acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
    })),
  };
}

/** Pipeline exceptions as gateway errors (never a 500 for something the caller can act on). */
export function pipelineError(error: unknown): AppError | undefined {
  if (error instanceof SubmissionNotFoundError) return new AppError("not_found", "No such submission.");
  if (error instanceof IllegalTransitionError) return new AppError("conflict", error.message, { reason: "illegal_transition" });
  if (error instanceof Error && /does not match the submission kind/.test(error.message)) return new AppError("unprocessable", error.message, { reason: "invalid_data" });
  return undefined;
}
