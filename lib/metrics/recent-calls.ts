/**
 * The platform calls of the last hour in this process, for the status page's sends/answers/failures
 * and p50/p95 latency (Prometheus histograms are for scrapers; an operator wants numbers now).
 * At the platform's limits (1 600 calls a minute) an hour is under 100 000 small entries.
 */
export type CallGroup = "eligibility" | "claims" | "status";

interface Call {
  at: number;
  group: CallGroup;
  status: number;
  ms: number;
}

const HOUR = 3_600_000;
const KEY = Symbol.for("clinic-exchange.recent-calls");

function calls(): Call[] {
  const holder = globalThis as { [KEY]?: Call[] };
  holder[KEY] ??= [];
  return holder[KEY];
}

export function recordCall(group: CallGroup, status: number, ms: number, at = Date.now()): void {
  const list = calls();
  list.push({ at, group, status, ms });
  if (list.length % 1000 === 0) prune(at);
}

function prune(now: number): void {
  const list = calls();
  const first = list.findIndex((c) => c.at >= now - HOUR);
  if (first > 0) list.splice(0, first);
  else if (first < 0) list.length = 0;
}

export interface CallSummary {
  group: CallGroup;
  calls: number;
  answered: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Per group over the last hour: calls, answers (2xx–4xx: the platform answered), failures, p50/p95. */
export function recentCalls(now = Date.now()): CallSummary[] {
  prune(now);
  return (["eligibility", "claims", "status"] as const).map((group) => {
    const mine = calls().filter((c) => c.group === group && c.at >= now - HOUR);
    const answered = mine.filter((c) => c.status >= 200 && c.status < 500 && c.status !== 429);
    const ms = mine.filter((c) => c.status > 0).map((c) => c.ms).sort((a, b) => a - b);
    return { group, calls: mine.length, answered: answered.length, failed: mine.length - answered.length, p50Ms: percentile(ms, 50), p95Ms: percentile(ms, 95) };
  });
}
