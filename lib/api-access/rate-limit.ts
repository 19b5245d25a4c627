import { and, asc, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { apiRateCounters, queryRows } from "@/lib/db";

export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a request would be admitted again (for `Retry-After`). */
  retryAfterSeconds: number;
}

/** Slices per window: a refused caller waits at most one slice (6 s of 60 s) longer than it must. */
export const RATE_SLICES = 10;

/**
 * Counts one request against `bucket` with a sliding window, atomically and for every portal
 * instance at once: no stretch of `windowMs` (60 s), wherever it starts, admits more than
 * `limit` (docs/decisions/070-quota-fully-usable.md). A fixed clock-minute counter admitted up to
 * twice the limit across a minute boundary.
 *
 * The window is cut into RATE_SLICES slices, one counter row each (api_rate_counters keyed by the
 * slice's start). A request is admitted when its own slice plus the RATE_SLICES slices before it —
 * which cover every window ending now — hold at most `limit`. The increment and the sum are one
 * statement; a refused request takes its increment back, so refusals do not count. Two racing
 * requests may both see the other and both be refused, never both admitted over the limit.
 * Used for the portal's own APIs: per organization, API key, OAuth client and gateway token.
 */
export async function consumeRate(db: Db, bucket: string, rule: RateRule, now = new Date()): Promise<RateDecision> {
  const slice = Math.max(1, Math.floor(rule.windowMs / RATE_SLICES));
  const current = Math.floor(now.getTime() / slice) * slice;
  const from = new Date(current - RATE_SLICES * slice);
  const at = new Date(current);
  const [row] = await queryRows<{ mine: number; earlier: number }>(
    db,
    sql`with up as (
          insert into api_rate_counters as c (bucket, window_start, count) values (${bucket}, ${at.toISOString()}::timestamptz, 1)
          on conflict (bucket, window_start) do update set count = c.count + 1
          returning c.count
        )
        select (select count from up)::int as mine,
               coalesce((select sum(e.count) from api_rate_counters e
                         where e.bucket = ${bucket} and e.window_start >= ${from.toISOString()}::timestamptz and e.window_start < ${at.toISOString()}::timestamptz), 0)::int as earlier`,
  );
  const total = Number(row?.mine ?? 1) + Number(row?.earlier ?? 0);
  if (total <= rule.limit) return { allowed: true, limit: rule.limit, remaining: Math.max(0, rule.limit - total), retryAfterSeconds: 0 };
  await db
    .update(apiRateCounters)
    .set({ count: sql`greatest(0, ${apiRateCounters.count} - 1)` })
    .where(and(eq(apiRateCounters.bucket, bucket), eq(apiRateCounters.windowStart, at)));
  // When enough of the oldest slices have left the window for one more request.
  const slices = await db
    .select({ start: apiRateCounters.windowStart, count: apiRateCounters.count })
    .from(apiRateCounters)
    .where(and(eq(apiRateCounters.bucket, bucket), gte(apiRateCounters.windowStart, from), lte(apiRateCounters.windowStart, at)))
    .orderBy(asc(apiRateCounters.windowStart));
  let held = slices.reduce((sum, s) => sum + s.count, 0);
  let admitAt = current + slice;
  for (const s of slices) {
    if (held + 1 <= rule.limit) break;
    held -= s.count;
    admitAt = s.start.getTime() + (RATE_SLICES + 1) * slice;
  }
  return { allowed: false, limit: rule.limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((admitAt - now.getTime()) / 1000)) };
}

/**
 * `consumeRate` committed without waiting for the WAL flush: a counter lost in a crash only
 * forgives a few requests, and the flush was half of a request's latency on a busy disk (the
 * audit entry keeps its synchronous commit). For the high-volume read API (/v1).
 */
export async function consumeRateFast(db: Db, bucket: string, rule: RateRule, now = new Date()): Promise<RateDecision> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    return consumeRate(tx, bucket, rule, now);
  });
}

/** Standard headers for a rate-limited answer. */
export function rateHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.retryAfterSeconds);
  return headers;
}

/** Deletes counters of slices that started before `before` (keep at least one window). */
export async function pruneRateCounters(db: Db, before: Date): Promise<void> {
  await db.delete(apiRateCounters).where(lt(apiRateCounters.windowStart, before));
}
