/**
 * Prometheus metrics of this portal process (prom-client). Labels are route families, groups,
 * states and status codes — never ids, paths with ids, or patient data.
 *
 * Next.js bundles instrumentation and each route separately, so the metrics live on globalThis:
 * every bundle records into, and /api/metrics reads from, the same registry.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { recordCall, type CallGroup } from "./recent-calls";

export { recentCalls, type CallGroup, type CallSummary } from "./recent-calls";

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "cx_" });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  return {
    registry,
    httpRequests: new Counter({ name: "cx_http_requests_total", help: "HTTP requests answered, by route family and status", labelNames: ["family", "status"], registers: [registry] }),
    httpDuration: new Histogram({ name: "cx_http_request_duration_seconds", help: "HTTP request duration by route family", labelNames: ["family"], buckets: seconds, registers: [registry] }),
    platformCalls: new Counter({ name: "cx_platform_calls_total", help: "Calls to the platform, by endpoint group and HTTP status (0: no answer)", labelNames: ["group", "status"], registers: [registry] }),
    platformDuration: new Histogram({ name: "cx_platform_call_duration_seconds", help: "Platform call latency by endpoint group", labelNames: ["group"], buckets: seconds, registers: [registry] }),
    ratePermits: new Counter({ name: "cx_platform_rate_permits_total", help: "Rate-limit permits granted to this process, by group", labelNames: ["group"], registers: [registry] }),
    rateWaits: new Counter({ name: "cx_platform_rate_waits_total", help: "Times a platform call had to wait for a rate-limit permit, by group", labelNames: ["group"], registers: [registry] }),
    rate429: new Counter({ name: "cx_platform_rate_limited_total", help: "429 answers from the platform, by group", labelNames: ["group"], registers: [registry] }),
    webhooks: new Counter({ name: "cx_webhooks_total", help: "Platform webhooks received, by HTTP status answered", labelNames: ["status"], registers: [registry] }),
    polls: new Counter({ name: "cx_polls_total", help: "Follow-up polls of sent submissions, by result", labelNames: ["result"], registers: [registry] }),
    signInFailures: new Counter({ name: "cx_sign_in_failures_total", help: "Failed staff sign-ins, by reason", labelNames: ["reason"], registers: [registry] }),
    lockouts: new Counter({ name: "cx_sign_in_lockouts_total", help: "Accounts locked after repeated failed sign-ins", registers: [registry] }),
    eventStreams: new Gauge({ name: "cx_event_streams", help: "Open live-event streams (Server-Sent Events) in this process", registers: [registry] }),
    outboxDepth: new Gauge({ name: "cx_outbox_submissions", help: "Submissions by state (whole installation)", labelNames: ["state"], registers: [registry] }),
    outboxOldest: new Gauge({ name: "cx_outbox_oldest_queued_seconds", help: "Age of the oldest queued submission (0 when none)", registers: [registry] }),
    inboxMessages: new Gauge({ name: "cx_inbox_messages", help: "Messages kept in the inbox, by state (unmatched and failed are waiting for billing)", labelNames: ["state"], registers: [registry] }),
    inboxReceived: new Counter({ name: "cx_inbox_received_total", help: "Messages received into the inbox, by source and result (stored, repeat, unreadable)", labelNames: ["source", "result"], registers: [registry] }),
    pollerBacklog: new Gauge({ name: "cx_poller_backlog", help: "Sent or pended submissions due for a follow-up poll", registers: [registry] }),
    rateUse: new Gauge({ name: "cx_platform_rate_used", help: "Platform permits used in the last minute, all instances, by group", labelNames: ["group"], registers: [registry] }),
    rateLimit: new Gauge({ name: "cx_platform_rate_limit", help: "The platform's limit per minute, by group", labelNames: ["group"], registers: [registry] }),
  };
}

export type Metrics = ReturnType<typeof build>;

const KEY = Symbol.for("clinic-exchange.metrics");

export function metrics(): Metrics {
  const holder = globalThis as { [KEY]?: Metrics };
  holder[KEY] ??= build();
  return holder[KEY];
}

/** One finished platform call: counters, histogram, and the recent-calls window for the status page. */
export function observePlatformCall(group: CallGroup, status: number, ms: number): void {
  const m = metrics();
  m.platformCalls.inc({ group, status: String(status) });
  m.platformDuration.observe({ group }, ms / 1000);
  if (status === 429) m.rate429.inc({ group });
  recordCall(group, status, ms);
}
