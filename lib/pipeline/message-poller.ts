import type { Db } from "@/lib/db";
import type { MessageView } from "@/lib/fhir";
import { describeError } from "@/lib/http";
import { pendingPollId, routeDue, storePollReply, type RouteOptions } from "@/lib/inbox";
import { lineWriter } from "@/lib/log";
import { PIPELINE_INBOUND, combineInbound, type InboundHandlers } from "./inbound";
import { incomingOf, routeInboxMessage } from "./inbox-route";
import { classifyFailure } from "@/lib/submissions";
import type { PollingPort } from "@/lib/platform";

export interface MessagePollerOptions {
  db: Db;
  client: PollingPort;
  /** Pause between polls once the exchange said nothing more waits (MESSAGE_POLL_MS). */
  intervalMs: number;
  pollAfterMs: number;
  clock?: () => Date;
  log?: (message: string) => void;
  /**
   * The other facilities' ports (decision 049): the exchange hands each licence its own messages,
   * so every cycle polls the main port and then each of these, draining each in turn.
   */
  facilityPorts?: () => Promise<PollingPort[]>;
  /** Handlers for what polls bring besides the pipeline's own ClaimResponses (inbound.ts). */
  inbound?: InboundHandlers;
  /**
   * Fault tests only (inbox-crash.test.ts): called at the points a crash matters — a reply received
   * but not stored, stored but not routed, a message applied but not settled.
   */
  faultPoint?: (point: "replied" | "stored" | "applied") => void;
  /** Messages asked for per poll-request (default: the exchange's 100). */
  pollCount?: number;
  /** Inbox routing: lease, attempts and back-off (lib/inbox defaults). */
  inbox?: Pick<RouteOptions, "leaseMs" | "maxAttempts" | "backoff">;
}

export interface MessagePollerStats {
  polls: number;
  /** Polls sent at once because the previous reply carried `queued-messages`. */
  drainPolls: number;
  /** Messages received (good and malformed), each stored in the inbox before anything is applied. */
  messages: number;
  applied: number;
  /** Messages kept as unmatched (no submission found, a type or event nobody handles). */
  unrouted: number;
  /** Messages kept as failed (unreadable, or handling failed). */
  failed: number;
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
 * sends a poll-request (≤ 100 messages), stores every message of the reply in the inbox (lib/inbox,
 * each on its own: a malformed one is kept as failed and costs the others nothing), then routes
 * what is due from the inbox into the pipeline (apply.ts — the same transitions, timeline and live
 * events as webhooks), and polls again at once while the reply carries `queued-messages`.
 *
 * Nothing is lost if this process dies at any point (docs/decisions/096): the poll-request's id is saved
 * before it is sent and retired in the transaction that stores its reply, so after a crash the
 * same request goes again and the exchange answers it again (guide 6.4); a new request — which
 * clears what the last one handed out — goes only once the reply is stored. Routing is idempotent
 * by message id and every handler is idempotent, so a crash mid-apply applies nothing twice.
 */
export function startMessagePoller(options: MessagePollerOptions): MessagePoller {
  const { db, client } = options;
  const log = options.log ?? lineWriter("warn");
  const clock = options.clock ?? (() => new Date());
  const handlers: InboundHandlers = combineInbound(PIPELINE_INBOUND, options.inbound);
  const stats: MessagePollerStats = { polls: 0, drainPolls: 0, messages: 0, applied: 0, unrouted: 0, failed: 0 };
  // The views read on arrival, by inbox id, so a message is parsed once when it is routed at once.
  const views = new Map<string, MessageView>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;
  let waiters: ((s: MessagePollerStats) => void)[] = [];
  const stopping = new AbortController();

  async function routeStored(): Promise<void> {
    const pass = await routeDue(
      db,
      async (row) => {
        const outcome = await routeInboxMessage({ db, handlers, clock, pollAfterMs: options.pollAfterMs, log, views }, row);
        options.faultPoint?.("applied");
        return outcome;
      },
      { clock, log, ...options.inbox },
    );
    stats.applied += pass.applied;
    stats.unrouted += pass.unmatched;
    stats.failed += pass.failed;
  }

  async function cycle(): Promise<void> {
    let others: PollingPort[] = [];
    try {
      others = (await options.facilityPorts?.()) ?? [];
    } catch (error) {
      log(`[message-poller] the facilities' ports are not available: ${describeError(error)}`);
    }
    // Whatever is due from before (a retry, a crash's leftovers) first.
    await routeStored();
    for (const [i, port] of [client, ...others].entries()) await drain(port, i === 0 ? "main" : `facility:${i}`);
  }

  async function drain(port: PollingPort, key: string): Promise<void> {
    let more = true;
    let draining = false;
    while (more && !stopped) {
      const pollId = await pendingPollId(db, key);
      const reply = await port.pollMessages({ signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(60_000)]), pollId, ...(options.pollCount ? { count: options.pollCount } : {}) });
      if (stats.polls > 0 && draining) stats.drainPolls++;
      stats.polls++;
      options.faultPoint?.("replied");
      const parts = reply.parts ?? reply.messages.map((view, index) => ({ index, raw: {}, view }));
      // Stored whole, every one, before anything is applied and before the next poll-request.
      const stored = await storePollReply(db, key, pollId, parts.map((p) => incomingOf(p, "poll", key === "main" ? undefined : key)), clock());
      stats.messages += parts.length;
      options.faultPoint?.("stored");
      stored.forEach((s, i) => {
        const view = parts[i]?.view;
        if (s.fresh && view) views.set(s.id, view);
      });
      await routeStored();
      views.clear();
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
