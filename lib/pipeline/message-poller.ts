import type { Db } from "@/lib/db";
import type { MessageView } from "@/lib/fhir";
import { describeError } from "@/lib/http";
import { lineWriter } from "@/lib/log";
import { PIPELINE_INBOUND, routeInbound, type InboundContext, type InboundHandlers } from "./inbound";
import { classifyFailure, type ExchangePlatform, type MessagePolling } from "./platform-port";

export interface MessagePollerOptions {
  db: Db;
  client: ExchangePlatform & MessagePolling;
  /** Pause between polls once the exchange said nothing more waits (MESSAGE_POLL_MS). */
  intervalMs: number;
  pollAfterMs: number;
  clock?: () => Date;
  log?: (message: string) => void;
  /**
   * The other facilities' ports (decision 049): the exchange hands each licence its own messages,
   * so every cycle polls the main port and then each of these, draining each in turn.
   */
  facilityPorts?: () => Promise<MessagePolling[]>;
  /** Handlers for what polls bring besides the pipeline's own ClaimResponses (inbound.ts). */
  inbound?: InboundHandlers;
}

export interface MessagePollerStats {
  polls: number;
  /** Polls sent at once because the previous reply carried `queued-messages`. */
  drainPolls: number;
  messages: number;
  applied: number;
  /** Messages the portal cannot route yet (no submission found, a type it does not handle). */
  unrouted: number;
}

export interface MessagePoller {
  /** Polls now (and again at once while `queued-messages` is present) instead of at the next interval. */
  wake(): void;
  stats(): MessagePollerStats;
  /** Resolves when the loop has stopped (the poll in flight finishes). */
  stop(): Promise<void>;
  /** Resolves after the next poll cycle has drained the exchange's queue (tests, scripts). */
  drained(): Promise<MessagePollerStats>;
}

/**
 * The messaging protocol has no webhooks: the exchange keeps late answers (pended and decided
 * ClaimResponses, CommunicationRequests, PaymentReconciliations) until the clinic polls. This loop
 * sends a poll-request (≤ 100 messages), routes every message into the pipeline (apply.ts — the
 * same transitions, timeline and live events as webhooks), and polls again at once while the reply
 * carries the `queued-messages` tag; then it waits `intervalMs`.
 *
 * Nothing is lost if this process dies between receiving a poll reply and applying it: the outbox
 * still follows every sent/pended submission after POLL_AFTER_MS of silence with a status-check.
 * Several portal instances may poll at once: the exchange hands each message out once, and
 * applying news is idempotent and never moves a submission backwards.
 */
export function startMessagePoller(options: MessagePollerOptions): MessagePoller {
  const { db, client } = options;
  const log = options.log ?? lineWriter("warn");
  const clock = options.clock ?? (() => new Date());
  const handlers: InboundHandlers = { ...PIPELINE_INBOUND, ...options.inbound };
  const stats: MessagePollerStats = { polls: 0, drainPolls: 0, messages: 0, applied: 0, unrouted: 0 };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;
  let waiters: ((s: MessagePollerStats) => void)[] = [];
  const stopping = new AbortController();

  async function route(message: MessageView): Promise<void> {
    stats.messages++;
    const context: InboundContext = {
      db,
      clock,
      pollAfterMs: options.pollAfterMs,
      log,
      source: "poll",
      ...(message.header.event ? { event: message.header.event } : {}),
      ...(message.bundleId ? { messageId: message.bundleId } : {}),
    };
    for (const resource of message.focus.length > 0 ? message.focus : message.entries.flatMap((e) => (e.resource ? [e.resource] : []))) {
      const result = await routeInbound(handlers, context, resource);
      if (result === "unrouted") stats.unrouted++;
      else if (result === "applied") stats.applied++;
    }
  }

  async function cycle(): Promise<void> {
    let others: MessagePolling[] = [];
    try {
      others = (await options.facilityPorts?.()) ?? [];
    } catch (error) {
      log(`[message-poller] the facilities' ports are not available: ${describeError(error)}`);
    }
    for (const port of [client, ...others]) await drain(port);
  }

  async function drain(port: MessagePolling): Promise<void> {
    let more = true;
    let draining = false;
    while (more && !stopped) {
      const reply = await port.pollMessages({ signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(60_000)]) });
      if (stats.polls > 0 && draining) stats.drainPolls++;
      stats.polls++;
      for (const message of reply.messages) {
        try {
          await route(message);
        } catch (error) {
          log(`[message-poller] a polled message could not be applied: ${describeError(error)}`);
        }
      }
      more = reply.more;
      draining = more;
    }
  }

  function schedule(delay: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = cycle()
      .then(() => {
        const done = waiters;
        waiters = [];
        for (const w of done) w({ ...stats });
      })
      .catch((error: unknown) => {
        const failure = classifyFailure(error);
        if (!stopped) log(`[message-poller] poll failed (${failure.kind}${failure.status ? ` ${failure.status}` : ""}); trying again later`);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(options.intervalMs);
      });
  }

  schedule(0);
  return {
    wake: () => schedule(0),
    stats: () => ({ ...stats }),
    drained: () =>
      new Promise((resolve) => {
        waiters.push(resolve);
        if (running) again = true;
        else schedule(0);
      }),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const inFlight = running;
      const abort = setTimeout(() => stopping.abort(), 10_000);
      await inFlight?.catch(() => undefined);
      clearTimeout(abort);
    },
  };
}
