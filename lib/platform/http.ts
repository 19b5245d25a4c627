import { PlatformUnavailableError } from "./errors";

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/** Maps an undici / socket error to PlatformUnavailableError (reason network or timeout). Abort errors pass through. */
export function transportError(error: unknown, requestId: string, what: string): Error {
  const err = error as { name?: string; code?: string; message?: string };
  if (err?.name === "AbortError" || err?.code === "UND_ERR_ABORTED" || err?.code === "ABORT_ERR") return error as Error;
  const timeout = TIMEOUT_CODES.has(err?.code ?? "");
  return new PlatformUnavailableError({
    reason: timeout ? "timeout" : "network",
    requestId,
    message: `${what}: ${timeout ? "timed out" : "could not reach the platform"} (${err?.code ?? err?.name ?? "error"}: ${err?.message ?? String(error)})`,
    cause: error,
  });
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number, fallbackMs: number): number {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return fallbackMs;
  const seconds = Number(raw.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - nowMs) : fallbackMs;
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Sleeps `ms`, rejecting early with the signal's reason when aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
