import { lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { apiRateCounters } from "@/lib/db";

export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends (for `Retry-After`). */
  retryAfterSeconds: number;
}

/**
 * Counts one request against `bucket` in the current fixed window, atomically and for every
 * portal instance at once (one upsert). Used for the portal's own APIs: per organization, API key,
 * OAuth client and gateway token.
 */
export async function consumeRate(db: Db, bucket: string, rule: RateRule, now = new Date()): Promise<RateDecision> {
  const start = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  const windowStart = new Date(start);
  const [row] = await db
    .insert(apiRateCounters)
    .values({ bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [apiRateCounters.bucket, apiRateCounters.windowStart],
      set: { count: sql`${apiRateCounters.count} + 1` },
    })
    .returning({ count: apiRateCounters.count });
  const count = row?.count ?? 1;
  return {
    allowed: count <= rule.limit,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((start + rule.windowMs - now.getTime()) / 1000)),
  };
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

/** Deletes counters of windows that ended before `before`. */
export async function pruneRateCounters(db: Db, before: Date): Promise<void> {
  await db.delete(apiRateCounters).where(lt(apiRateCounters.windowStart, before));
}
