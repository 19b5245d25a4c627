import type { Clock } from "./clock";

/**
 * Rate limits per client certificate (thumbprint) and endpoint group (spec, "Limits": eligibility
 * 100, claims 500, status 1000 per minute), as an exact sliding window: a request is refused when
 * `limit` requests were already accepted in the last `windowMs`. So the 101st eligibility request
 * within ANY 60 seconds is refused, whatever the clock minute. Retry-After is the time until the
 * oldest counted request leaves the window. Counters live in memory: a restart starts afresh.
 */

export type RateLimitGroup = "eligibility" | "claims" | "status";

export type RateLimits = Record<RateLimitGroup, number>;

export const DEFAULT_RATE_LIMITS: RateLimits = { eligibility: 100, claims: 500, status: 1000 };
export const DEFAULT_RATE_WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a slot frees up (at least 1). */
  resetSeconds: number;
}

export class RateLimiter {
  /** Accepted request times per group+subject, oldest first (at most `limit` entries each). */
  private readonly logs = new Map<string, number[]>();
  private takes = 0;

  constructor(
    private readonly limits: RateLimits,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one request (when accepted) and says whether it is within the limit. */
  take(subject: string, group: RateLimitGroup): RateDecision {
    const now = this.clock.now();
    const key = `${group}\u0000${subject}`;
    let log = this.logs.get(key);
    if (!log) {
      log = [];
      this.logs.set(key, log);
    }
    let expired = 0;
    while (expired < log.length && (log[expired] ?? 0) <= now - this.windowMs) expired++;
    if (expired > 0) log.splice(0, expired);
    const limit = this.limits[group];
    if (++this.takes % 10_000 === 0) this.prune(now);
    if (log.length >= limit) {
      const oldest = log[0] ?? now;
      return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    log.push(now);
    const oldest = log[0] ?? now;
    return { allowed: true, limit, remaining: limit - log.length, resetSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }

  private prune(now: number): void {
    for (const [key, log] of this.logs) if ((log[log.length - 1] ?? 0) <= now - this.windowMs) this.logs.delete(key);
  }
}
