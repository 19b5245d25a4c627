/**
 * The outbox's retry policy: how long a submission waits after a failed send. The values come from
 * the environment (OUTBOX_BACKOFF_BASE_MS, OUTBOX_BACKOFF_MAX_MS, declared with their defaults in
 * lib/env.ts) through the pipeline's configuration, or from the test that starts the worker.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** 0..1: the share of each delay that is randomised (full jitter = 1). */
  jitter: number;
}

/**
 * Delay before the next attempt after `attempts` failed ones: base × 2^(attempts−1), capped, with
 * part of it randomised so that many submissions failing together do not retry together. A
 * platform's Retry-After is a floor.
 */
export function backoffDelayMs(policy: BackoffPolicy, attempts: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = exp * (1 - policy.jitter) + exp * policy.jitter * random();
  return Math.max(Math.round(jittered), retryAfterMs);
}
