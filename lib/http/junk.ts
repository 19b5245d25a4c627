import { env } from "@/lib/env";

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

const debugEnabled = () => {
  try {
    return env().LOG_LEVEL === "debug";
  } catch {
    return false;
  }
};

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

/**
 * A client that hung up in the middle of its request body: Node's `Error: aborted` (ECONNRESET)
 * on the request stream. Next.js buffers every body proxy.ts sees and prints this error with its
 * stack when the client goes away first (next-server's runMiddleware → console.error) — the
 * client's doing, not a fault (docs/decisions/094).
 */
export function isClientAbort(value: unknown): boolean {
  const error = value as { code?: unknown; message?: unknown } | null;
  return !!error && typeof error === "object" && error.code === "ECONNRESET" && error.message === "aborted";
}

const FILTER_KEY = Symbol.for("clinic-exchange.client-abort-filter");

/**
 * Counts client aborts as junk instead of printing them: console.error (and console.warn, which
 * Next.js also uses) pass every other call through unchanged. Installed once per process at boot.
 */
export function quietClientAborts(target: Pick<Console, "error" | "warn"> = console): void {
  const holder = target as typeof target & { [FILTER_KEY]?: boolean };
  if (holder[FILTER_KEY]) return;
  holder[FILTER_KEY] = true;
  for (const method of ["error", "warn"] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => {
      if (args.length > 0 && args.length <= 2 && args.some(isClientAbort) && args.every((a) => isClientAbort(a) || typeof a === "string")) {
        noteJunk("ClientAborted");
        return;
      }
      original(...args);
    };
  }
}
