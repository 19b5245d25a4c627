/**
 * Unauthenticated junk — forged or stale session cookies, missing CSRF tokens, malformed URLs —
 * is counted, not logged line by line: thousands of such requests must not bury real faults (or
 * fill the disk). Each one is a debug line (LOG_LEVEL=debug); at most once a minute an info line
 * says how many of each kind were refused. No message text is kept: Auth.js' messages may quote
 * the cookie or the URL.
 */
const counts = new Map<string, number>();
const totals = new Map<string, number>();
let windowStart = Date.now();

const debugEnabled = () => (process.env.LOG_LEVEL ?? "").trim().toLowerCase() === "debug";

export function noteJunk(kind: string, now = Date.now()): void {
  const key = kind.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 60) || "unknown";
  counts.set(key, (counts.get(key) ?? 0) + 1);
  totals.set(key, (totals.get(key) ?? 0) + 1);
  if (debugEnabled()) console.debug(`[junk] refused ${key}`);
  if (now - windowStart >= 60_000) {
    const summary = [...counts].map(([k, n]) => `${k}=${n}`).join(", ");
    counts.clear();
    windowStart = now;
    console.info(`[junk] refused in the last minute: ${summary}`);
  }
}

/** Counts since the process started, by kind (for tests and diagnostics). */
export function junkCounts(): Record<string, number> {
  return Object.fromEntries(totals);
}
