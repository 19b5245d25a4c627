import { z } from "zod";

/**
 * Fault injection, off by default, changed at run time through `PUT /_admin/faults`. Applies to the
 * platform routes and the token endpoint, never to `/_admin`. Not persisted: a restart turns it off.
 */
export const FaultConfigSchema = z
  .object({
    /** Added to every response, in milliseconds. */
    latencyMs: z.number().int().min(0).max(120_000),
    /** Fraction (0–1) of requests answered with `errorStatus` before any processing. */
    errorRate: z.number().min(0).max(1),
    errorStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]),
    /** Fraction (0–1) of requests whose connection is destroyed before any processing. */
    dropRate: z.number().min(0).max(1),
    /** Fraction (0–1) of requests processed (state changed) whose connection is then destroyed unanswered. */
    dropAfterProcessingRate: z.number().min(0).max(1),
    /** Answer every request with 429 (as if the rate limit were reached). */
    force429: z.boolean(),
    /** Retry-After (seconds) sent with a forced 429 or a 503. */
    retryAfterSeconds: z.number().int().min(0).max(3600),
  })
  .strict();

export type FaultConfig = z.infer<typeof FaultConfigSchema>;

export const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  errorRate: 0,
  errorStatus: 503,
  dropRate: 0,
  dropAfterProcessingRate: 0,
  force429: false,
  retryAfterSeconds: 1,
};

/** Partial update accepted by PUT /_admin/faults (missing members keep their value). */
export const FaultPatchSchema = FaultConfigSchema.partial().strict();

export class Faults {
  private config: FaultConfig = { ...NO_FAULTS };

  constructor(private readonly random: () => number = Math.random) {}

  get(): FaultConfig {
    return { ...this.config };
  }

  update(patch: Partial<FaultConfig>): FaultConfig {
    this.config = { ...this.config, ...patch };
    return this.get();
  }

  reset(): FaultConfig {
    this.config = { ...NO_FAULTS };
    return this.get();
  }

  /** True with probability `rate` (never for 0, always for 1). */
  roll(rate: number): boolean {
    if (rate <= 0) return false;
    if (rate >= 1) return true;
    return this.random() < rate;
  }
}
