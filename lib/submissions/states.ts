import { and, eq, sql } from "drizzle-orm";
import { liveEvents, submissionEvents, submissions } from "@/lib/db";
import type { Db, SubmissionKind, SubmissionStatus, TransitionSource, Tx } from "@/lib/db";

/**
 * The life of a submission (docs/decisions/062; the states are the platform's processing statuses plus our own draft, queued and failed):
 *
 *   draft → queued → sent → pended → complete | partial | denied
 *                     └──→ rejected            (the platform said no; fix and resubmit as a new one)
 *   queued | sent → failed → queued           (gave up after retries; a person retries it)
 *   sent | pended | complete | partial → cancelled   (cancel / nullify accepted by the platform, decision 046)
 *   complete | partial | denied → complete | partial | denied | cancelled   (the payer reissued its decision, docs/decisions/097:
 *                                 the new one is current, the earlier stays on the timeline; `cancel` withdraws it)
 *
 * A POST answered with an OperationOutcome never created anything on the platform, so that
 * rejection goes straight from `queued` (the timeline records the request). `sent` may jump to a
 * decision directly (authorizations are decided in the answer; a claim's `pended` is optional).
 */
export const TRANSITIONS: Readonly<Record<SubmissionStatus, readonly SubmissionStatus[]>> = {
  draft: ["queued", "cancelled"],
  queued: ["sent", "rejected", "failed"],
  sent: ["pended", "complete", "partial", "denied", "rejected", "failed", "cancelled"],
  pended: ["complete", "partial", "denied", "rejected", "cancelled"],
  complete: ["cancelled", "complete", "partial", "denied"],
  partial: ["cancelled", "complete", "partial", "denied"],
  denied: ["complete", "partial", "denied", "cancelled"],
  rejected: [],
  failed: ["queued"],
  cancelled: [],
};

export const FINAL_STATUSES: readonly SubmissionStatus[] = ["complete", "partial", "denied", "rejected", "cancelled"];
export const DECISION_STATUSES = ["complete", "partial", "denied"] as const satisfies readonly SubmissionStatus[];
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export function canTransition(from: SubmissionStatus, to: SubmissionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isFinal(status: SubmissionStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** Roles that may see a submission's live events (claims: billing; authorizations: front desk too). */
export function audienceFor(kind: SubmissionKind): string[] {
  if (kind === "prescription") return ["prescriber"];
  return kind === "claim" ? ["billing", "manager"] : ["front_desk", "billing", "manager"];
}

/** The change is not allowed from the submission's status (a bug or a stale caller). */
export class IllegalTransitionError extends Error {
  override name = "IllegalTransitionError";
  constructor(
    readonly submissionId: string,
    readonly from: SubmissionStatus,
    readonly to: SubmissionStatus,
  ) {
    super(`submission ${submissionId}: ${from} → ${to} is not allowed`);
  }
}

/** Someone else changed the submission since it was read; re-read and decide again. */
export class StaleSubmissionError extends Error {
  override name = "StaleSubmissionError";
  constructor(
    readonly submissionId: string,
    readonly expected: SubmissionStatus,
  ) {
    super(`submission ${submissionId} is no longer ${expected}`);
  }
}

export type Submission = typeof submissions.$inferSelect;
export type SubmissionPatch = Partial<Omit<typeof submissions.$inferInsert, "id" | "status" | "kind" | "createdAt">>;

/** Patient-free detail for the timeline: HTTP status, error code, attempt number, request id. */
export interface TransitionDetail {
  requestId?: string;
  [key: string]: unknown;
}

export const LIVE_CHANNEL = "cx_live";

/**
 * THE way a submission changes state: checks the move, updates the row only if it still has the
 * status the caller saw (optimistic check), appends the timeline entry and the live event, and
 * NOTIFYs — all in the caller's transaction, so either everything happened or nothing did (the
 * NOTIFY is delivered on commit).
 */
export async function transition(
  tx: Tx,
  submission: Pick<Submission, "id" | "status" | "kind">,
  to: SubmissionStatus,
  source: TransitionSource,
  detail: TransitionDetail = {},
  patch: SubmissionPatch = {},
  at: Date = new Date(),
): Promise<Submission> {
  const from = submission.status;
  if (!canTransition(from, to)) throw new IllegalTransitionError(submission.id, from, to);
  const [row] = await tx
    .update(submissions)
    .set({ ...patch, status: to, updatedAt: at })
    .where(and(eq(submissions.id, submission.id), eq(submissions.status, from)))
    .returning();
  if (!row) throw new StaleSubmissionError(submission.id, from);
  const { requestId, ...rest } = detail;
  await appendTimeline(tx, { submissionId: row.id, from, to, source, requestId, detail: rest, at });
  await emitLive(tx, row, { from, source, at });
  await noteOverridden(tx, row, from, source, at);
  return row;
}

/**
 * A new version of a prior authorization (a change that repeats its items and keeps its
 * preAuthRef, `replaces_id`), once the payer approves it, overrides the version it replaces (guide
 * 7.3.1; docs/decisions/101): the earlier one's timeline says so, in the same transaction. Only on
 * the new version's first decision (a reissue of it overrides nothing again).
 */
async function noteOverridden(tx: Tx, row: Submission, from: SubmissionStatus, source: TransitionSource, at: Date): Promise<void> {
  if (row.kind !== "preauthorization" || !row.replacesId || (row.status !== "complete" && row.status !== "partial") || from === "complete" || from === "partial") return;
  const [earlier] = await tx.select().from(submissions).where(eq(submissions.id, row.replacesId));
  if (!earlier) return;
  await noteOnTimeline(tx, earlier, { kind: "submission.note", note: "overridden", source, detail: { by: row.id } }, at);
}

export async function appendTimeline(
  tx: Tx,
  entry: {
    submissionId: string;
    from: SubmissionStatus | null;
    to: SubmissionStatus;
    source: TransitionSource;
    requestId?: string;
    detail?: Record<string, unknown>;
    at?: Date;
  },
): Promise<void> {
  await tx.insert(submissionEvents).values({
    submissionId: entry.submissionId,
    fromStatus: entry.from,
    toStatus: entry.to,
    source: entry.source,
    requestId: entry.requestId ?? null,
    detail: entry.detail && Object.keys(entry.detail).length > 0 ? entry.detail : null,
    at: entry.at ?? new Date(),
  });
}

/** Writes the live event for a submission's (new) status and announces it to every instance. */
export async function emitLive(
  tx: Tx,
  row: Pick<Submission, "id" | "kind" | "status" | "platformId" | "totalMinor" | "currency">,
  info: { from: SubmissionStatus | null; source: TransitionSource; at: Date },
): Promise<void> {
  await announceLive(tx, {
    at: info.at,
    kind: "submission.status",
    submissionId: row.id,
    submissionKind: row.kind,
    status: row.status,
    audience: audienceFor(row.kind),
    // Never patient data: browsers fetch details through their own, authorized pages.
    payload: { from: info.from, to: row.status, source: info.source, platformId: row.platformId, totalMinor: row.totalMinor, currency: row.currency },
  });
}

/**
 * THE emitter of live events: every one — a submission's status, a note on its timeline, a visit
 * run's progress, a remittance — is written here and announced to every instance (the NOTIFY is
 * delivered when the caller's transaction commits; lib/pipeline/live.ts reads the rows). Ids,
 * counts and amounts only: never patient data.
 */
export async function announceLive(db: Db | Tx, event: typeof liveEvents.$inferInsert): Promise<void> {
  const [row] = await db.insert(liveEvents).values(event).returning({ id: liveEvents.id });
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${String(row!.id)})`);
}

// ---- Decisions 045–048: news about a submission that is not a status change -------------------------------

/**
 * Something happened to a submission without changing its status — a payer's information request,
 * our answer, its acknowledgement, a refused cancellation, a status check: one timeline entry
 * (from = to = the current status, `detail.note` names it) and one live event of `kind` (e.g.
 * `information.request`) for the submission's audience (claims: billing, manager; authorizations:
 * front desk too), announced like a status change.
 */
export async function noteOnTimeline(
  tx: Tx,
  submission: Pick<Submission, "id" | "status" | "kind" | "platformId" | "totalMinor" | "currency">,
  note: { kind: string; note: string; source: TransitionSource; requestId?: string; detail?: Record<string, unknown>; payload?: Record<string, unknown> },
  at: Date = new Date(),
): Promise<void> {
  await appendTimeline(tx, {
    submissionId: submission.id,
    from: submission.status,
    to: submission.status,
    source: note.source,
    requestId: note.requestId,
    detail: { note: note.note, ...note.detail },
    at,
  });
  await announceLive(tx, {
    at,
    kind: note.kind,
    submissionId: submission.id,
    submissionKind: submission.kind,
    status: submission.status,
    audience: audienceFor(submission.kind),
    payload: { note: note.note, source: note.source, platformId: submission.platformId, ...note.payload },
  });
}
