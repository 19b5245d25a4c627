import { describeError } from "@/lib/http";
/**
 * The submission pipeline, receiving side: what the exchange sends on its own (the platform
 * webhook, the message poller, inbound handlers, the inbox's routing and review) and the live
 * events that show it. Sending and following up is lib/submissions' outbox, which `startPipeline`
 * starts. Other modules import only this file. See README.md beside it.
 */
import type { Database, Db } from "@/lib/db";
import { pipelineConfig, type PipelineConfig } from "./config";
import { pruneLiveEvents } from "./live";
import { startOutboxWorker, type OutboxWorker, type PreSendEligibility } from "@/lib/submissions";
import { canPollMessages, type PlatformPort } from "@/lib/platform";
import { startMessagePoller, type MessagePoller } from "./message-poller";
import { PIPELINE_INBOUND, combineInbound, type InboundHandlers } from "./inbound";
import { routeInboxMessage } from "./inbox-route";
import { routeDue } from "@/lib/inbox";
import { lineWriter } from "@/lib/log";

export { pipelineConfig, parsePipelineConfig, type PipelineConfig } from "./config";
export { emitGeneralLive } from "./general-live";
export {
  handlePlatformWebhook,
  verifyWebhookSignature,
  webhookKey,
  ClaimStatusWebhookSchema,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookDeps,
  type ReceiptResult,
} from "./webhooks";
export { LiveHub, liveHub, liveEventStream, pruneLiveEvents, closeLiveStreams, type LiveEvent } from "./live";
export {
  routeInbound,
  combineInbound,
  taskInbound,
  claimResponseInbound,
  submissionForRequest,
  PIPELINE_INBOUND,
  type InboundContext,
  type InboundHandler,
  type InboundHandlers,
  type InboundResult,
} from "./inbound";
export { startMessagePoller, type MessagePoller, type MessagePollerOptions, type MessagePollerStats } from "./message-poller";
export { resolveReference, type ResolvedReference, type ReferenceTarget } from "./references";

export interface PipelineServices {
  worker: OutboxWorker;
  /** Messaging protocol only: the poll-request loop (there are no webhooks then). */
  messagePoller?: MessagePoller;
  stop(graceMs?: number): Promise<{ inFlight: number; aborted: boolean }>;
}

/**
 * Starts what runs in the background of a portal instance: the outbox worker of lib/submissions
 * (which also follows sent submissions up), the message poller or the inbox's routing pass, and the
 * hourly clean-up of old live events. Every instance may run it; they share the
 * work through the database.
 */
export function startPipeline(deps: {
  db: Db;
  client: PlatformPort;
  config?: Partial<PipelineConfig>;
  clock?: () => Date;
  log?: (message: string) => void;
  /** A facility's own port (decision 049): its submissions go out and are followed up through it. */
  clientFor?: (facilityId: string) => Promise<PlatformPort>;
  /** Messaging: every active facility's port besides the main one, polled each cycle. */
  facilityPorts?: () => Promise<PlatformPort[]>;
  /** What else polls (and webhooks) bring: CommunicationRequests, PaymentReconciliations … (inbound.ts). */
  inbound?: InboundHandlers;
  /** The eligibility check before sending (docs/decisions/124): lib/eligibility's, passed by the process. */
  preSendEligibility?: PreSendEligibility;
}): PipelineServices {
  const config = { ...pipelineConfig(), ...deps.config };
  const clock = deps.clock ?? (() => new Date());
  const worker = startOutboxWorker({
    db: deps.db,
    client: deps.client,
    clock,
    pollMs: config.pollMs,
    leaseMs: config.leaseMs,
    maxAttempts: config.maxAttempts,
    backoff: config.backoff,
    concurrency: config.concurrency,
    batchSize: config.batchSize,
    pollAfterMs: config.pollAfterMs,
    log: deps.log,
    ...(deps.clientFor ? { clientFor: deps.clientFor } : {}),
    ...(deps.preSendEligibility ? { preSendEligibility: deps.preSendEligibility } : {}),
  });
  const messagePoller = canPollMessages(deps.client)
    ? startMessagePoller({ db: deps.db, client: deps.client, intervalMs: config.messagePollMs, pollAfterMs: config.pollAfterMs, clock, log: deps.log, inbound: deps.inbound, facilityPorts: async () => ((await deps.facilityPorts?.()) ?? []).filter(canPollMessages) })
    : undefined;
  // REST: no poll loop; a slow pass settles what a webhook receiver left mid-way (lib/inbox).
  const inboxTimer = messagePoller
    ? undefined
    : setInterval(() => {
        const handlers = combineInbound(PIPELINE_INBOUND, deps.inbound);
        const log = deps.log ?? lineWriter("warn");
        void routeDue(deps.db, (row) => routeInboxMessage({ db: deps.db, handlers, clock, pollAfterMs: config.pollAfterMs, log }, row), { clock, log }).catch((error: unknown) => log(`[inbox] routing pass failed: ${describeError(error)}`));
      }, 30_000);
  inboxTimer?.unref?.();
  const prune = async () => {
    try {
      await pruneLiveEvents({ db: deps.db }, new Date(clock().getTime() - config.liveEventsRetentionMs));
    } catch (error) {
      (deps.log ?? lineWriter("warn"))(`[exchange] could not prune live events: ${describeError(error)}`);
    }
  };
  void prune();
  const pruneTimer = setInterval(() => void prune(), 60 * 60_000);
  pruneTimer.unref?.();
  return {
    worker,
    ...(messagePoller ? { messagePoller } : {}),
    async stop(graceMs?: number) {
      clearInterval(pruneTimer);
      if (inboxTimer) clearInterval(inboxTimer);
      const [stopped] = await Promise.all([worker.stop(graceMs), messagePoller?.stop()]);
      return stopped;
    },
  };
}

/** For route handlers: the per-process hub of the portal database. */
export type { Database };
export { liveStamp, liveStampQuery, type LiveStampQuery } from "./live-stamp";
export { PAGE_LIVE_KINDS } from "./live-kinds";
// Decision 096: routing from the inbox, and billing's settling of what matched nothing.
export { incomingOf, routeInboxMessage, type InboxRouteDeps } from "./inbox-route";
export { matchInboxMessage, InboxMatchError } from "./inbox-review";
