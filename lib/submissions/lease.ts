import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { appendTimeline, type Submission } from "./states";

/** Statuses the worker acts on: `queued` is sent; `sent`/`pended` are followed up (poller). */
export const WORKER_STATUSES = ["queued", "sent", "pended"] as const;

/**
 * Takes up to `limit` due submissions for `owner` until `now + leaseMs`: rows are picked with
 * `FOR UPDATE SKIP LOCKED` (several workers never take the same row, and never wait on each
 * other) and only when no live lease holds them (a crashed worker's rows come back when its lease
 * runs out). A row to send gets its attempt counted and a fresh X-Request-ID before anything
 * leaves, and the attempt is on the timeline — so even a worker killed mid-request leaves a trace.
 */
export async function leaseDue(db: Db, owner: string, now: Date, leaseMs: number, limit: number, batch?: BatchKey): Promise<Submission[]> {
  if (limit <= 0) return [];
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(
        and(
          lte(submissions.nextAttemptAt, now),
          batch ? eq(submissions.status, "queued") : inArray(submissions.status, [...WORKER_STATUSES]),
          or(isNull(submissions.leaseUntil), lt(submissions.leaseUntil, now)),
          ...(batch ? batchConditions(batch) : []),
        ),
      )
      .orderBy(asc(submissions.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    const rows = await tx
      .update(submissions)
      .set({
        leaseOwner: owner,
        leaseUntil,
        attempts: sql`${submissions.attempts} + case when ${submissions.status} = 'queued' then 1 else 0 end`,
        lastRequestId: sql`gen_random_uuid()::text`,
      })
      .where(inArray(submissions.id, due))
      .returning();
    for (const row of rows) {
      if (row.status !== "queued") continue;
      await appendTimeline(tx, {
        submissionId: row.id,
        from: "queued",
        to: "queued",
        source: "system",
        requestId: row.lastRequestId ?? undefined,
        detail: { event: "attempt", attempt: row.attempts, worker: owner },
        at: now,
      });
    }
    return rows;
  });
}

/** Claims that can travel in one batch-request: queued claims of one facility for one insurer. */
export interface BatchKey {
  facilityId: string | null;
  insurerId: string | null;
}

function batchConditions(key: BatchKey) {
  return [
    eq(submissions.kind, "claim"),
    key.facilityId === null ? isNull(submissions.facilityId) : eq(submissions.facilityId, key.facilityId),
    key.insurerId === null ? isNull(submissions.insurerId) : eq(submissions.insurerId, key.insurerId),
  ];
}

/**
 * Where a batch is worth it: (facility, insurer) pairs with at least two due, unleased, queued
 * claims, the longest-waiting first. Read without locks — leaseDue with the key takes the rows.
 */
export async function dueBatches(db: Db, now: Date, limit: number): Promise<BatchKey[]> {
  if (limit <= 0) return [];
  const rows = await db
    .select({ facilityId: submissions.facilityId, insurerId: submissions.insurerId })
    .from(submissions)
    .where(and(eq(submissions.status, "queued"), eq(submissions.kind, "claim"), lte(submissions.nextAttemptAt, now), or(isNull(submissions.leaseUntil), lt(submissions.leaseUntil, now))))
    .groupBy(submissions.facilityId, submissions.insurerId)
    .having(sql`count(*) >= 2`)
    .orderBy(sql`min(${submissions.nextAttemptAt})`)
    .limit(limit);
  return rows;
}

/**
 * The heartbeat: extends this worker's leases on the rows it is still working on to `now +
 * leaseMs`. Run every leaseMs / 3 while work is in flight, so a lease can be short (15 s) —
 * a crashed worker's rows come back within one lease — yet never runs out under a live worker
 * that is merely slow. Rows released or taken over meanwhile are left alone. Returns how many
 * leases were extended.
 */
export async function renewLeases(db: Db, owner: string, ids: readonly string[], now: Date, leaseMs: number): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(submissions)
    .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(and(inArray(submissions.id, [...ids]), eq(submissions.leaseOwner, owner), inArray(submissions.status, [...WORKER_STATUSES])))
    .returning({ id: submissions.id });
  return rows.length;
}

/** How often the heartbeat renews leases: a third of the lease, so two beats may be missed. */
export function heartbeatMs(leaseMs: number): number {
  return Math.max(250, Math.floor(leaseMs / 3));
}

/**
 * Graceful shutdown: hands back every lease `owner` still holds, due now, so another instance
 * takes the rows at once instead of waiting for the leases to run out. Returns how many.
 */
export async function releaseLeases(db: Db, owner: string, now = new Date()): Promise<number> {
  const released = await db
    .update(submissions)
    .set({ leaseOwner: null, leaseUntil: null, nextAttemptAt: now })
    .where(eq(submissions.leaseOwner, owner))
    .returning({ id: submissions.id });
  return released.length;
}
