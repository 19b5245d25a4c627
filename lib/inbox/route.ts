import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { inboxMessages, type Db } from "@/lib/db";
import { metrics } from "@/lib/metrics";
import { INBOX_REASONS } from "./reasons";

export type InboxRow = typeof inboxMessages.$inferSelect;

/**
 * What routing one stored message came to. `applied`: it changed something or was already known
 * (a repeat); `unmatched`: nothing here it belongs to — kept and shown; `failed`: it could not be
 * handled — retried with back-off while `retry` and attempts remain, then kept and shown.
 */
export type RouteOutcome =
  | { status: "applied"; submissionId?: string }
  | { status: "unmatched"; reason: string }
  | { status: "failed"; reason: string; retry: boolean };

export interface RouteOptions {
  clock?: () => Date;
  /** How long a router holds a message it took (a killed router's messages come back after it). */
  leaseMs?: number;
  maxAttempts?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** Only these rows (the ones just stored), when given. */
  ids?: readonly string[];
  batch?: number;
  log?: (message: string) => void;
}

export const INBOX_DEFAULTS = { leaseMs: 30_000, maxAttempts: 6, backoff: { baseMs: 5_000, maxMs: 15 * 60_000 }, batch: 50 };

/**
 * Takes due messages for one router: `FOR UPDATE SKIP LOCKED` in a short transaction that counts
 * the attempt and moves `next_attempt_at` to the end of the lease, so two routers never hold the
 * same message and a killed router's messages are due again when its lease ends.
 */
export async function takeDue(db: Db, options: { now: Date; leaseMs: number; limit: number; ids?: readonly string[] }): Promise<InboxRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: inboxMessages.id })
      .from(inboxMessages)
      .where(
        and(
          inArray(inboxMessages.status, ["received", "failed"]),
          isNotNull(inboxMessages.nextAttemptAt),
          lte(inboxMessages.nextAttemptAt, options.now),
          ...(options.ids ? [inArray(inboxMessages.id, [...options.ids])] : []),
        ),
      )
      .orderBy(asc(inboxMessages.receivedAt))
      .limit(options.limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(inboxMessages)
      .set({ attempts: sql`${inboxMessages.attempts} + 1`, nextAttemptAt: new Date(options.now.getTime() + options.leaseMs), updatedAt: options.now })
      .where(inArray(inboxMessages.id, due.map((d) => d.id)))
      .returning();
  });
}

function backoffMs(attempts: number, backoff: { baseMs: number; maxMs: number }): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
}

/** Records what routing came to, if the row is still the one this router took (same attempt). */
export async function settle(db: Db, row: Pick<InboxRow, "id" | "attempts">, outcome: RouteOutcome, options: { now: Date; maxAttempts: number; backoff: { baseMs: number; maxMs: number } }): Promise<void> {
  const retry = outcome.status === "failed" && outcome.retry && row.attempts < options.maxAttempts;
  await db
    .update(inboxMessages)
    .set({
      status: outcome.status,
      lastError: outcome.status === "applied" ? null : outcome.reason.slice(0, 500),
      nextAttemptAt: retry ? new Date(options.now.getTime() + backoffMs(row.attempts, options.backoff)) : null,
      ...(outcome.status === "applied" && outcome.submissionId ? { submissionId: outcome.submissionId } : {}),
      updatedAt: options.now,
    })
    .where(and(eq(inboxMessages.id, row.id), eq(inboxMessages.attempts, row.attempts), inArray(inboxMessages.status, ["received", "failed"])));
}

export interface RoutePass {
  taken: number;
  applied: number;
  unmatched: number;
  failed: number;
}

/**
 * Routes every due message (or the given ones) through `route`, one at a time, until none is due.
 * A throw is a failure with its error's name (never its message: it could hold patient data) and
 * is retried with back-off; the pass goes on with the next message.
 */
export async function routeDue(db: Db, route: (row: InboxRow) => Promise<RouteOutcome>, options: RouteOptions = {}): Promise<RoutePass> {
  const clock = options.clock ?? (() => new Date());
  const leaseMs = options.leaseMs ?? INBOX_DEFAULTS.leaseMs;
  const maxAttempts = options.maxAttempts ?? INBOX_DEFAULTS.maxAttempts;
  const backoff = options.backoff ?? INBOX_DEFAULTS.backoff;
  const pass: RoutePass = { taken: 0, applied: 0, unmatched: 0, failed: 0 };
  for (;;) {
    const rows = await takeDue(db, { now: clock(), leaseMs, limit: options.batch ?? INBOX_DEFAULTS.batch, ...(options.ids ? { ids: options.ids } : {}) });
    if (rows.length === 0) break;
    for (const row of rows) {
      pass.taken++;
      let outcome: RouteOutcome;
      try {
        outcome = await route(row);
      } catch (error) {
        const name = error instanceof Error ? error.name : "Error";
        outcome = { status: "failed", reason: INBOX_REASONS.handlerFailed(name), retry: true };
        options.log?.(`[inbox] message ${row.id} could not be handled (${name}); attempt ${row.attempts} of ${maxAttempts}`);
      }
      await settle(db, row, outcome, { now: clock(), maxAttempts, backoff });
      pass[outcome.status]++;
    }
    if (options.ids) break;
  }
  if (pass.unmatched + pass.failed > 0 || pass.taken > 0) await refreshInboxGauge(db);
  return pass;
}

/** The prom gauge of kept messages by state (unmatched, failed …), whole installation. */
export async function refreshInboxGauge(db: Db): Promise<Record<string, number>> {
  const rows = await db.select({ status: inboxMessages.status, n: sql<number>`count(*)::int` }).from(inboxMessages).groupBy(inboxMessages.status);
  const counts: Record<string, number> = { received: 0, applied: 0, unmatched: 0, failed: 0, dismissed: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  for (const [state, n] of Object.entries(counts)) metrics().inboxMessages.set({ state }, n);
  return counts;
}
