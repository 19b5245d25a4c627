import { env, parseEnv, type Env } from "@/lib/env";
import type { BackoffPolicy } from "@/lib/submissions";

/**
 * Settings of the submission pipeline (variables declared and validated in lib/env.ts; a bad
 * value stops the start with a message naming it). Everything has a default that suits one
 * clinic on one platform; tests pass their own values instead of using the environment.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | OUTBOX_POLL_MS | 1000 | how often an idle worker looks for due submissions |
 * | OUTBOX_LEASE_MS | 15000 | how long a worker's hold on a submission lasts without renewal; a live worker renews it every third of it (heartbeat), a crashed worker's rows return after it |
 * | OUTBOX_MAX_ATTEMPTS | 8 | sends before a submission is `failed` |
 * | OUTBOX_CONCURRENCY | 8 | requests in flight per worker |
 * | OUTBOX_BACKOFF_BASE_MS | 2000 | first retry delay; doubles per attempt, with jitter |
 * | OUTBOX_BACKOFF_MAX_MS | 300000 | longest retry delay |
 * | POLL_AFTER_MS | 60000 | a sent/pended submission with no news for this long is read from the platform |
 * | WEBHOOK_FETCH_TIMEOUT_MS | 3000 | how long the webhook handler waits for the adjudication before leaving it to the poller |
 * | LIVE_EVENTS_RETENTION_MS | 86400000 | live events older than this are deleted |
 *
 * The outbox these settings drive is lib/submissions' (its worker, backoff and follow-up); the
 * pipeline reads them here and passes them to it from `startPipeline`.
 */
export interface PipelineConfig {
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
  concurrency: number;
  backoff: BackoffPolicy;
  pollAfterMs: number;
  webhookFetchTimeoutMs: number;
  liveEventsRetentionMs: number;
  /** Messaging: pause between poll-requests once the queue is drained (MESSAGE_POLL_MS). */
  messagePollMs: number;
  /** Messaging: claims per batch-request (OUTBOX_BATCH_SIZE; 1 = each claim alone). */
  batchSize: number;
}

/** The pipeline's view of the configuration (the variables are validated in lib/env.ts). */
export function pipelineConfigFrom(e: Env): PipelineConfig {
  return {
    pollMs: e.OUTBOX_POLL_MS,
    leaseMs: e.OUTBOX_LEASE_MS,
    maxAttempts: e.OUTBOX_MAX_ATTEMPTS,
    concurrency: e.OUTBOX_CONCURRENCY,
    backoff: { baseMs: e.OUTBOX_BACKOFF_BASE_MS, maxMs: Math.max(e.OUTBOX_BACKOFF_MAX_MS, e.OUTBOX_BACKOFF_BASE_MS), jitter: 0.5 },
    pollAfterMs: e.POLL_AFTER_MS,
    webhookFetchTimeoutMs: e.WEBHOOK_FETCH_TIMEOUT_MS,
    liveEventsRetentionMs: e.LIVE_EVENTS_RETENTION_MS,
    messagePollMs: e.MESSAGE_POLL_MS,
    batchSize: e.OUTBOX_BATCH_SIZE,
  };
}

/** For tests: the view of a given set of variables (throws ConfigError naming a bad one). */
export function parsePipelineConfig(source: Record<string, string | undefined>): PipelineConfig {
  return pipelineConfigFrom(parseEnv(source));
}

export function pipelineConfig(): PipelineConfig {
  return pipelineConfigFrom(env());
}
