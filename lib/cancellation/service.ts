import { randomUUID } from "node:crypto";
import { audit, type Caller } from "@/lib/audit";
import type { Db, SubmissionKind, SubmissionStatus } from "@/lib/db";

import { applyPlatformNews, decisionOf, getSubmission, lockSubmission, markCancelled, noteOnTimeline, type PlatformStatus, type Submission } from "@/lib/submissions";
import { buildCancelTask, type CancelReason } from "@/lib/fhir";
import { PlatformError, isRetryablePlatformError, portOf, type PortSource } from "@/lib/platform";

/**
 * Decision 046: cancel or nullify a submission on the platform (a cancel Task), and ask
 * the platform where a submission stands now (REST: `GET /Claim/{id}` + its ClaimResponse;
 * messaging: status-check messages). Cancellation is a status change through the owner's `markCancelled` —
 * timeline, live event and all — made only once the platform answered `completed`; a refusal is
 * noted on the timeline with the platform's words and the status stays.
 */
export interface CancellationDeps {
  db: Db;
  /** The port, or the facility ports (getPlatformPort): each submission goes out through its facility. */
  port: PortSource;
  providerOrgId: string;
  clock?: () => Date;
  /** For applying what a status check found (default 60 s). */
  pollAfterMs?: number;
}

/** Statuses from which a submission can be cancelled on the platform (the platform holds it). */
export const CANCELLABLE: readonly SubmissionStatus[] = ["sent", "pended", "complete", "partial"];

/** The platform holds it and we can name it: by our identifier (always, once queued) or its id (decision 073). */
export function canCancel(submission: { status: SubmissionStatus; platformId: string | null; identifierValue?: string | null }): boolean {
  return CANCELLABLE.includes(submission.status) && (submission.platformId !== null || Boolean(submission.identifierValue));
}

const targetOf = (row: Submission) => ({
  ...(row.platformId ? { platformId: row.platformId } : {}),
  ...(row.identifierValue ? { identifier: { ...(row.identifierSystem ? { system: row.identifierSystem } : {}), value: row.identifierValue } } : {}),
});

export type CancelResult =
  | { ok: true; done: true; status: "cancelled" }
  | { ok: true; done: false; status: SubmissionStatus; reason?: string }
  | { ok: false; error: "not_found" | "not_cancellable" | "platform"; reason?: string };

async function load(db: Db, id: string, kinds: readonly SubmissionKind[]): Promise<Submission | undefined> {
  const row = await getSubmission(db, id);
  return row && kinds.includes(row.kind) ? row : undefined;
}

export async function cancelSubmission(deps: CancellationDeps, caller: Caller, input: { id: string; reason: CancelReason; kinds: readonly SubmissionKind[] }): Promise<CancelResult> {
  const now = deps.clock ?? (() => new Date());
  const row = await load(deps.db, input.id, input.kinds);
  if (!row) return { ok: false, error: "not_found" };
  if (!canCancel(row)) return { ok: false, error: "not_cancellable" };
  const code = row.kind === "claim" && (row.status === "complete" || row.status === "partial") ? "nullify" : "cancel";
  const task = buildCancelTask({
    id: randomUUID(),
    target: targetOf(row),
    code,
    reason: input.reason,
    providerOrgId: deps.providerOrgId,
    ...(row.insurerId ? { insurerOrgId: row.insurerId } : {}),
    authoredOn: now(),
  });
  const target = { type: "submission", id: row.id };
  let answer;
  try {
    answer = await (await portOf(deps.port, row.facilityId)).cancel(task, { requestId: caller.requestId });
  } catch (error) {
    await audit(deps.db, { actor: caller.actor, action: `${row.kind === "claim" ? "claim" : row.kind === "prescription" ? "prescription" : "authorization"}.cancel`, target, outcome: "failure", requestId: caller.requestId, ip: caller.ip, details: { reason: input.reason } });
    const words = error instanceof PlatformError ? (error.resolution ?? error.diagnostics ?? error.message) : isRetryablePlatformError(error) ? "unavailable" : undefined;
    return { ok: false, error: "platform", ...(words ? { reason: words } : {}) };
  }
  const at = now();
  const detail = { cancelReason: input.reason, task: code, taskStatus: answer.outcome.taskStatus, ...(answer.outcome.reason ? { platformReason: answer.outcome.reason } : {}) };
  const result = await deps.db.transaction(async (tx): Promise<CancelResult> => {
    const current = await lockSubmission(tx, row.id);
    if (!current) return { ok: false, error: "not_found" };
    if (answer.outcome.done) {
      if (current.status === "cancelled") return { ok: true, done: true, status: "cancelled" };
      if (!CANCELLABLE.includes(current.status)) return { ok: false, error: "not_cancellable" };
      await markCancelled(tx, current, { requestId: answer.requestId, ...detail }, at);
      return { ok: true, done: true, status: "cancelled" };
    }
    await noteOnTimeline(tx, current, { kind: "submission.note", note: "cancelRefused", source: "platform", requestId: answer.requestId, detail }, at);
    return { ok: true, done: false, status: current.status, ...(answer.outcome.reason ? { reason: answer.outcome.reason } : {}) };
  });
  await audit(deps.db, {
    actor: caller.actor,
    action: `${row.kind === "claim" ? "claim" : row.kind === "prescription" ? "prescription" : "authorization"}.cancel`,
    target,
    outcome: result.ok && result.done ? "success" : "failure",
    requestId: caller.requestId,
    ip: caller.ip,
    details: { reason: input.reason, task: code, taskStatus: answer.outcome.taskStatus },
  });
  return result;
}

/** What the platform says now against what the portal believes. */
export interface StatusCheckResult {
  portal: SubmissionStatus;
  /** The platform's processing status (queued, pended, complete, partial, denied, cancelled) or decision. */
  platform?: string;
  /** The platform's words for its decision, when decided. */
  disposition?: string;
  agree: boolean;
  /** The portal took the platform's newer news (e.g. a decision it had not heard of yet). */
  updated: boolean;
  /** The portal's status after the check. */
  now: SubmissionStatus;
  requestId: string;
}

const DECIDED = new Set(["complete", "partial", "denied"]);

/** At the platform (not queued, not refused before it) and nameable by our identifier or its id. */
const AT_THE_PLATFORM: readonly SubmissionStatus[] = ["sent", "pended", "complete", "partial", "denied", "cancelled"];
export const canCheckStatus = (row: Pick<Submission, "status" | "platformId" | "identifierValue">) => row.platformId !== null || (AT_THE_PLATFORM.includes(row.status) && Boolean(row.identifierValue));

export type StatusCheckOutcome = { ok: true; check: StatusCheckResult } | { ok: false; error: "not_found" | "not_sent" | "platform"; reason?: string };

export async function checkSubmissionStatus(deps: CancellationDeps, caller: Caller, input: { id: string; kinds: readonly SubmissionKind[] }): Promise<StatusCheckOutcome> {
  const row = await load(deps.db, input.id, input.kinds);
  if (!row) return { ok: false, error: "not_found" };
  if (!canCheckStatus(row)) return { ok: false, error: "not_sent" };
  let platform: string | undefined;
  let disposition: string | undefined;
  let response;
  let requestId = caller.requestId;
  try {
    const port = await portOf(deps.port, row.facilityId);
    const found = await port.claimStatus(targetOf(row), { requestId: caller.requestId });
    requestId = found.requestId;
    platform = found.processingStatus;
    if (platform && DECIDED.has(platform) && found.response && found.responseView) {
      // The answer with the view the port read of it: not read again (docs/decisions/078).
      response = { raw: found.response, view: found.responseView };
      disposition = found.responseView.disposition;
      const decided = decisionOf(found.responseView);
      if (decided) platform = decided;
    }
  } catch (error) {
    const words = error instanceof PlatformError ? (error.resolution ?? error.diagnostics ?? error.message) : undefined;
    return { ok: false, error: "platform", ...(words ? { reason: words } : {}) };
  }
  let now: SubmissionStatus = row.status;
  let updated = false;
  if (platform && platform !== row.status && ["pended", "complete", "partial", "denied"].includes(platform)) {
    const applied = await applyPlatformNews({ db: deps.db, clock: deps.clock, pollAfterMs: deps.pollAfterMs ?? 60_000 }, row.id, {
      status: platform as PlatformStatus,
      ...(response ? { response } : {}),
      source: "platform",
      detail: { requestId, note: "statusCheck" },
    });
    if (applied.result === "applied" && applied.submission) updated = true;
  }
  // What the portal believes after the check (news may also have arrived by webhook or poll meanwhile).
  now = (await load(deps.db, row.id, input.kinds))?.status ?? now;
  await audit(deps.db, { actor: caller.actor, action: `${row.kind === "claim" ? "claim" : row.kind === "prescription" ? "prescription" : "authorization"}.status_check`, target: { type: "submission", id: row.id }, outcome: "success", requestId: caller.requestId, ip: caller.ip, details: { platform, portal: row.status } });
  return { ok: true, check: { portal: row.status, ...(platform ? { platform } : {}), ...(disposition ? { disposition } : {}), agree: platform === row.status, updated, now, requestId } };
}
