import { randomUUID } from "node:crypto";
import type { Claim } from "@medplum/fhirtypes";
import { isResourceOf } from "@/lib/fhir";
import { describeError } from "@/lib/http";
import type { Submission } from "../states";
import { auditPipeline } from "./audit";
import { accepted, refused, retryLater, type OutboxContext } from "./settle";
import { classifyFailure } from "./call-failure";
import { type PlatformPort } from "@/lib/platform";
import { pollSubmission } from "./poll";
import { clearedToSend } from "./eligibility";

/*
 * The outbox's work on leased rows: a queued row is sent (alone, or with others of its facility and
 * insurer in a batch-request), a sent/pended row is followed up (poll.ts). What each answer or
 * failure does to the row is settle.ts.
 */

/**
 * The port of a row's facility; undefined when that facility cannot connect — the row then
 * waits (and, after the attempts, fails visibly) rather than go out with another certificate.
 */
async function portOf(ctx: OutboxContext, row: Submission): Promise<PlatformPort | undefined> {
  if (!row.facilityId || !ctx.clientFor) return ctx.client;
  try {
    return await ctx.clientFor(row.facilityId);
  } catch (error) {
    ctx.log(`[outbox] submission ${row.id}: its facility cannot connect (${describeError(error)})`);
    if (row.status === "queued") await retryLater(ctx, row, { kind: "transient", reason: "facility_unavailable", retryAfterMs: 60_000 });
    return undefined;
  }
}

/** One leased row: sent when queued, followed up when sent or pended. */
export async function handleRow(ctx: OutboxContext, row: Submission): Promise<void> {
  const port = await portOf(ctx, row);
  if (!port) return;
  if (row.status === "queued") return (await clearedToSend(ctx, row, port)) ? send(ctx, row, port) : undefined;
  return pollSubmission({ db: ctx.db, client: port, clock: ctx.now, pollAfterMs: ctx.followUpAfter(), owner: ctx.owner, signal: ctx.signal(), log: ctx.log }, row);
}

/** Stored as JSON by submissions.ts from the builders' Claim; anything else is a bug, not news. */
function claimOf(row: Submission): Claim {
  if (!isResourceOf<Claim>(row.claim, "Claim")) throw new TypeError(`submission ${row.id} holds no Claim`);
  return row.claim;
}

async function send(ctx: OutboxContext, row: Submission, client: PlatformPort): Promise<void> {
  const requestId = row.lastRequestId ?? randomUUID();
  try {
    const answer = await client.submitClaim(claimOf(row), { requestId, signal: ctx.signal(), waitForPermit: true });
    await accepted(ctx, row, answer, requestId);
  } catch (error) {
    await refused(ctx, row, error, requestId, client);
  }
}

/**
 * Claims of one facility for one insurer in batch-requests (messaging): each claim's own answer
 * or refusal is settled as if it had gone alone. When the batch as a whole is refused (not a
 * claim of it), each claim goes alone instead — a claim is never rejected for its neighbours.
 */
export async function handleBatch(ctx: OutboxContext, rows: Submission[]): Promise<void> {
  const port = await portOf(ctx, rows[0]!);
  if (!port) {
    for (const row of rows.slice(1)) await retryLater(ctx, row, { kind: "transient", reason: "facility_unavailable", retryAfterMs: 60_000 });
    return;
  }
  // Each claim's eligibility first: one the fresh answer stops leaves the batch (eligibility.ts).
  const cleared: Submission[] = [];
  for (const row of rows) if (await clearedToSend(ctx, row, port)) cleared.push(row);
  if (cleared.length === 0) return;
  const requestId = cleared[0]!.lastRequestId ?? randomUUID();
  const sendable: Submission[] = [];
  for (const row of cleared) {
    try {
      claimOf(row);
      sendable.push(row);
    } catch (error) {
      await refused(ctx, row, error, row.lastRequestId ?? requestId, port);
    }
  }
  let outcomes: Awaited<ReturnType<NonNullable<PlatformPort["submitClaimBatch"]>>>;
  try {
    outcomes = await port.submitClaimBatch!(sendable.map(claimOf), { requestId, signal: ctx.signal(), waitForPermit: true });
  } catch (error) {
    outcomes = sendable.map(() => ({ ok: false as const, error, batchWide: true }));
  }
  for (const [i, row] of sendable.entries()) {
    const outcome = outcomes[i] ?? { ok: false as const, error: new Error("no outcome for this claim"), batchWide: true };
    try {
      if (outcome.ok) await accepted(ctx, row, outcome.answer, requestId);
      else if (outcome.batchWide && classifyFailure(outcome.error).kind === "rejected") await send(ctx, row, port);
      else await refused(ctx, row, outcome.error, requestId, port);
    } catch (error) {
      await refused(ctx, row, error, requestId, port);
    }
  }
  await auditPipeline(ctx.db, "outbox", "submission.batch", cleared[0]!, "success", { requestId, claims: cleared.length }, ctx.log);
}
