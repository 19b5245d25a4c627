/**
 * How soon the portal looks again at a submission the platform has news about
 * (docs/decisions/070-quota-fully-usable.md, "decisions fast without luck"):
 *
 * - A decision whose ClaimResponse could not be fetched (the webhook's inline fetch timed out on a
 *   busy CPU, the poller's read failed) is retried with backoff in SECONDS — 1, 2, 4, 8, 16 s,
 *   with jitter — not left for the next silence poll (POLL_AFTER_MS, a minute). The retry is a
 *   due time in the database (`next_attempt_at`), so any instance's worker takes it, also when the
 *   instance that got the webhook dies.
 * - The silence poll adapts to the outstanding work: with N submissions sent or pended, each is
 *   read again after N / FOLLOW_UP_READS_PER_MINUTE minutes (at least MIN, at most POLL_AFTER_MS).
 *   The total stays within that share of the platform's status quota whatever the number of
 *   instances (they share the count), and a few outstanding claims are read within seconds when
 *   their webhook went to an instance that died.
 */
import type { Db } from "@/lib/db";
import { countAwaitingExchange } from "../lifecycle";

/** Half of the platform's status quota (1 000 a minute) is for silence polls. */
export const FOLLOW_UP_READS_PER_MINUTE = 500;
export const MIN_POLL_AFTER_MS = 5_000;

const BASE_MS = 1_000;
const CAP_MS = 16_000;

/** The delay before fetch attempt `failures + 1` of a known decision: 1, 2, 4, 8, 16, 16 … s (±20 %). */
export function decisionRetryMs(failures: number, random: () => number = Math.random): number {
  const plain = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, Math.min(10, failures)));
  return Math.round(plain * (0.8 + 0.4 * random()));
}

/**
 * Consecutive failed decision fetches per submission, in this process. Lost on restart, which
 * only starts the backoff over at one second; cleared once the decision is applied.
 */
export class DecisionRetries {
  private readonly failures = new Map<string, number>();

  /**
   * Records one more failure and says when to try again: never later than the silence poll
   * (`pollAfterMs`), which impatient set-ups (tests, a local platform) make shorter than a second.
   */
  next(submissionId: string, now: Date, pollAfterMs = Infinity): Date {
    const n = this.failures.get(submissionId) ?? 0;
    this.failures.set(submissionId, n + 1);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
    return new Date(now.getTime() + Math.min(decisionRetryMs(n), pollAfterMs));
  }

  clear(submissionId: string): void {
    this.failures.delete(submissionId);
  }
}

const KEY = Symbol.for("clinic-exchange.decision-retries");
/** One tracker per process (the webhook route and the worker live in different bundles). */
export function decisionRetries(): DecisionRetries {
  const holder = globalThis as { [KEY]?: DecisionRetries };
  holder[KEY] ??= new DecisionRetries();
  return holder[KEY];
}

/** The silence poll for `outstanding` submissions: see the module comment. */
export function adaptivePollAfterMs(outstanding: number, maxMs: number): number {
  const spread = Math.ceil((Math.max(0, outstanding) * 60_000) / FOLLOW_UP_READS_PER_MINUTE);
  return Math.max(Math.min(MIN_POLL_AFTER_MS, maxMs), Math.min(maxMs, spread));
}

/**
 * The current silence poll, from a count of sent/pended submissions refreshed at most every
 * `refreshMs` (one indexed count, in the background: a caller never waits for it).
 */
export function followUpPace(db: Db, maxMs: number, refreshMs = 5_000): () => number {
  let current = maxMs;
  let checkedAt = -Infinity;
  let checking = false;
  const refresh = async () => {
    checking = true;
    try {
      current = adaptivePollAfterMs(await countAwaitingExchange(db), maxMs);
    } catch {
      // Keep the last value: a missed count only delays a poll.
    } finally {
      checkedAt = performance.now();
      checking = false;
    }
  };
  return () => {
    if (!checking && performance.now() - checkedAt >= refreshMs) void refresh();
    return current;
  };
}
