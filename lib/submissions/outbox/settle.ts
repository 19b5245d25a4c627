import type { Claim } from "@medplum/fhirtypes";
import type { Db } from "@/lib/db";
import { claimProcessingStatus } from "@/lib/fhir";
import { appendTimeline, transition, type Submission } from "../states";
import { lockSubmission } from "../lifecycle";
import { reschedule } from "../schedule";
import { applyPlatformNews, decisionOf, isDecision, type PlatformStatus } from "../apply";
import { auditPipeline } from "./audit";
import { backoffDelayMs, type BackoffPolicy } from "./backoff";
import { classifyFailure, type CallFailure } from "./call-failure";
import { canPollMessages, claimIdFromLocation, type ClaimAnswer, type PlatformPort } from "@/lib/platform";
import { recordRouted, storeMessages, summarize } from "@/lib/inbox";
import { keyOf } from "./poll";
import type { PreSendEligibility } from "./eligibility";

/**
 * What the outbox worker hands every piece of its work: who it is, its clock and log, its limits,
 * the follow-up pace and a fresh signal per platform call (the worker stopping, or the request
 * timeout). Built once by `startOutboxWorker` (worker.ts).
 */
export interface OutboxContext {
  db: Db;
  client: PlatformPort;
  clientFor?: (facilityId: string) => Promise<PlatformPort>;
  owner: string;
  now: () => Date;
  log: (message: string) => void;
  maxAttempts: number;
  backoff: BackoffPolicy;
  random?: () => number;
  /** The silence after which sent/pended rows are followed up, as the adaptive pace says now (follow-up.ts). */
  followUpAfter: () => number;
  /** A signal for one platform call. */
  signal: () => AbortSignal;
  /** The eligibility check before sending (eligibility.ts); absent: rows are sent as they are. */
  preSendEligibility?: PreSendEligibility;
}

type Rejected = Extract<CallFailure, { kind: "rejected" }>;
type Transient = Extract<CallFailure, { kind: "transient" }>;

/*
 * What an answer or a failure of a send does to the row: accepted (its status and decision),
 * refused (ERR-005 reconciled, other refusals rejected, trouble retried later or given up).
 */

/**
 * The answer kept in the inbox before it is applied (docs/decisions/096): stored `received` and
 * due a minute later, so that a crash between here and the apply leaves it for the inbox's routing
 * (which finds the submission by our identifier); settled `applied` once the apply is done.
 */
async function keepAnswer(ctx: OutboxContext, row: Submission, answer: ClaimAnswer): Promise<string | undefined> {
  const received = answer.answer;
  if (!received) return undefined;
  const [kept] = await storeMessages(
    ctx.db,
    [
      {
        source: received.source,
        body: received.body,
        ...(received.messageId ? { messageId: received.messageId } : {}),
        ...(received.event ? { event: received.event } : {}),
        ...(row.facilityId ? { facilityId: row.facilityId } : {}),
        summary: summarize(answer.data as unknown as Record<string, unknown>),
        routedByCaller: true,
        // REST answers are the resource itself: routed as a fetched resource, not read as a message.
        ...(received.resource ? { fetched: received.body } : {}),
      },
    ],
    ctx.now(),
  );
  return kept?.id;
}

/** The platform took the claim: its id, status and (when decided in the answer) decision. */
export async function accepted(ctx: OutboxContext, row: Submission, answer: ClaimAnswer, requestId: string): Promise<void> {
  const kept = await keepAnswer(ctx, row, answer);
  // The platform's id when the answer names one; an identifier-only answer is just as good
  // (decision 073): everything later asks about the submission by our identifier.
  const platformId = answer.platformId ?? claimIdFromLocation(answer.location) ?? claimIdFromLocation(answer.data.request?.reference);
  // Authorizations are decided in the answer; a platform may decide claims there too (the
  // sandbox acknowledges them `queued` and decides later).
  // The port read the answer once; its view decides (docs/decisions/078).
  const decision = decisionOf(answer.view);
  const status: PlatformStatus = decision ?? (claimProcessingStatus(answer.data) as PlatformStatus | undefined) ?? "queued";
  await applyPlatformNews({ db: ctx.db, clock: ctx.now, pollAfterMs: ctx.followUpAfter() }, row.id, {
    status,
    ...(platformId ? { platformId } : {}),
    response: decision ? { raw: answer.data, view: answer.view } : undefined,
    source: "platform",
    detail: { requestId: answer.requestId || requestId, httpStatus: answer.status, attempt: row.attempts },
  });
  if (kept) await recordRouted(ctx.db, kept, { status: "applied", submissionId: row.id, at: ctx.now() });
  await auditPipeline(ctx.db, "outbox", "submission.send", row, "success", { requestId, httpStatus: answer.status, attempt: row.attempts, ...(platformId ? { platformId } : {}), status }, ctx.log);
}

/** A failed send: ERR-005 reconciled, other refusals rejected, everything else retried later. */
export async function refused(ctx: OutboxContext, row: Submission, error: unknown, requestId: string, client: PlatformPort): Promise<void> {
  const failure = classifyFailure(error);
  if (failure.kind === "rejected" && failure.code === "ERR-005") return reconcile(ctx, row, failure, client);
  if (failure.kind === "rejected") return reject(ctx, row, failure, requestId);
  return retryLater(ctx, row, { ...failure, requestId: failure.requestId ?? requestId });
}

/**
 * ERR-005: the platform already holds a claim with our identifier — an earlier attempt got
 * through (its answer was lost, or the worker died). Read the platform's copy and carry on as if
 * this attempt had been answered.
 */
async function reconcile(ctx: OutboxContext, row: Submission, failure: Rejected, client: PlatformPort): Promise<void> {
  try {
    const messaging = canPollMessages(client);
    let platformId = claimIdFromLocation(failure.existingLocation);
    // REST reads a claim by the platform's id (found by searching); the exchange is asked by our identifier.
    if (!platformId && !messaging) platformId = await findByIdentifier(ctx, row, client);
    if (!platformId && !messaging) {
      return await retryLater(ctx, row, { kind: "transient", reason: "duplicate_unresolved", status: 409, retryAfterMs: 0, requestId: failure.requestId });
    }
    if (platformId && !messaging) {
      const read = await client.readClaim(platformId, { signal: ctx.signal(), waitForPermit: true });
      const theirs = read.data.identifier ?? [];
      if (!theirs.some((i) => i.system === row.identifierSystem && i.value === row.identifierValue)) {
        // Not our claim after all: a genuine duplicate of someone else's identifier.
        return await reject(ctx, row, failure, failure.requestId);
      }
    }
    const found = await client.claimStatus(keyOf(row, platformId), { signal: ctx.signal(), waitForPermit: true });
    const status = (found.processingStatus as PlatformStatus | undefined) ?? "queued";
    const response = isDecision(status) && found.response && found.responseView ? { raw: found.response, view: found.responseView } : undefined;
    await applyPlatformNews({ db: ctx.db, clock: ctx.now, pollAfterMs: ctx.followUpAfter() }, row.id, {
      status,
      ...(platformId ? { platformId } : {}),
      response,
      source: "platform",
      detail: { requestId: failure.requestId, reconciled: true, code: "ERR-005", attempt: row.attempts },
    });
    await auditPipeline(ctx.db, "outbox", "submission.send", row, "success", { requestId: failure.requestId, reconciled: true, attempt: row.attempts, ...(platformId ? { platformId } : {}), status }, ctx.log);
  } catch (error) {
    const next = classifyFailure(error);
    await retryLater(ctx, row, next.kind === "transient" ? next : { kind: "transient", reason: "reconcile_failed", status: next.status, retryAfterMs: 0 });
  }
}

/** REST: the platform's id of our claim, found by searching the patient's claims for our identifier. */
async function findByIdentifier(ctx: OutboxContext, row: Submission, client: PlatformPort): Promise<string | undefined> {
  const created = typeof row.claim.created === "string" ? row.claim.created.slice(0, 10) : row.createdAt.toISOString().slice(0, 10);
  const bundle = await client.searchClaims({ patient: row.patientNationalId, createdOnOrAfter: created }, { signal: ctx.signal(), waitForPermit: true });
  const match = (bundle.data.entry ?? [])
    .map((e) => e.resource)
    .find((c: Claim | undefined) => c?.identifier?.some((i) => i.system === row.identifierSystem && i.value === row.identifierValue));
  return match?.id;
}

/** The platform said no (ERR-001…004 or another 4xx): `rejected` with its reasons; never retried. */
async function reject(ctx: OutboxContext, row: Submission, failure: Rejected, requestId: string | undefined): Promise<void> {
  const at = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const current = await lockSubmission(tx, row.id);
    if (!current || current.status !== "queued") return;
    const reason = { code: failure.code, status: failure.status, diagnostics: failure.diagnostics, resolution: failure.resolution, field: failure.field };
    await transition(
      tx,
      current,
      "rejected",
      "platform",
      { requestId: failure.requestId ?? requestId, httpStatus: failure.status, code: failure.code, attempt: current.attempts },
      { errors: [reason], nextAttemptAt: null, leaseOwner: null, leaseUntil: null, decidedAt: at },
      at,
    );
  });
  ctx.log(`[outbox] submission ${row.id} rejected by the platform (${failure.code ?? failure.status})`);
  await auditPipeline(ctx.db, "outbox", "submission.send", row, "denied", { requestId: failure.requestId ?? requestId, httpStatus: failure.status, code: failure.code, attempt: row.attempts }, ctx.log);
}

/** Transient trouble: try again later with the same identifier, or give up after maxAttempts. */
export async function retryLater(ctx: OutboxContext, row: Submission, failure: Transient): Promise<void> {
  const at = ctx.now();
  let gaveUp = false;
  await ctx.db.transaction(async (tx) => {
    const current = await lockSubmission(tx, row.id);
    // Someone else finished or took over the row meanwhile (our lease ran out): theirs wins.
    if (!current || current.status !== "queued" || current.leaseOwner !== ctx.owner) return;
    const error = {
      status: failure.status,
      code: undefined,
      diagnostics: `platform unavailable (${failure.reason}${failure.status ? ` ${failure.status}` : ""})`,
    };
    if (current.attempts >= ctx.maxAttempts) {
      gaveUp = true;
      await transition(
        tx,
        current,
        "failed",
        "system",
        { requestId: failure.requestId, reason: failure.reason, httpStatus: failure.status, attempt: current.attempts },
        { errors: [error], nextAttemptAt: null, leaseOwner: null, leaseUntil: null },
        at,
      );
      return;
    }
    const delay = backoffDelayMs(ctx.backoff, current.attempts, failure.retryAfterMs, ctx.random);
    await reschedule(tx, current.id, { nextAttemptAt: new Date(at.getTime() + delay), releaseLease: true, errors: [error], updatedAt: at });
    await appendTimeline(tx, {
      submissionId: current.id,
      from: "queued",
      to: "queued",
      source: "system",
      requestId: failure.requestId,
      detail: { event: "retry", attempt: current.attempts, reason: failure.reason, httpStatus: failure.status, retryInMs: delay },
      at,
    });
  });
  if (gaveUp) ctx.log(`[outbox] submission ${row.id} failed after ${row.attempts} attempts (${failure.reason})`);
  await auditPipeline(
    ctx.db,
    "outbox",
    "submission.send",
    row,
    "failure",
    { requestId: failure.requestId, reason: failure.reason, httpStatus: failure.status, attempt: row.attempts, gaveUp },
    ctx.log,
  );
}
