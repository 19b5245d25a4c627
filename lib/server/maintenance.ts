import { and, isNotNull, lt, or } from "drizzle-orm";
import { pruneRateCounters } from "@/lib/api-access";
import type { Db } from "@/lib/db";
import { jwtReplays, oauthTokens } from "@/lib/db";
import { log } from "@/lib/log";

const HOUR = 60 * 60 * 1000;

/**
 * Deletes bookkeeping rows that have served their purpose: API rate counters of past windows,
 * JWT ids whose tokens have expired (a replay would be refused as expired anyway) and OAuth
 * tokens a day after they expired or were revoked.
 */
export async function pruneExpired(db: Db, now = new Date()): Promise<void> {
  await pruneRateCounters(db, new Date(now.getTime() - HOUR));
  await db.delete(jwtReplays).where(lt(jwtReplays.expiresAt, now));
  const dayAgo = new Date(now.getTime() - 24 * HOUR);
  await db
    .delete(oauthTokens)
    .where(or(lt(oauthTokens.expiresAt, dayAgo), and(isNotNull(oauthTokens.revokedAt), lt(oauthTokens.revokedAt, dayAgo))));
}

/** Runs pruneExpired now and every hour; failures are logged and retried next time. */
export function startMaintenance(db: Db): { stop(): void } {
  const run = () =>
    pruneExpired(db).catch((error: unknown) => log("maintenance").warn(`pruning failed: ${(error as Error).name}`));
  void run();
  const timer = setInterval(run, HOUR);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
