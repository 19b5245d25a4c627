/**
 * How the outbox (and the pipeline's webhook and message poller) sorts a failed platform call
 * (lib/platform's port is the one port type: `PlatformPort`; this file only reads its errors).
 */

/** What went wrong with a platform call, as far as the pipeline cares. */
export type CallFailure =
  | {
      kind: "rejected";
      code?: string;
      status: number;
      diagnostics?: string;
      resolution?: string;
      field?: string;
      requestId?: string;
      existingLocation?: string;
    }
  | { kind: "transient"; status?: number; reason: string; retryAfterMs: number; requestId?: string };

/**
 * Sorts an error thrown by the platform client. PlatformError (`retryable: false`) is the
 * platform's final word; PlatformUnavailableError / PlatformRateLimitedError (`retryable: true`)
 * and anything unexpected (an aborted request, a bug) are retried — the business identifier makes
 * a retry safe. Read structurally so a second copy of lib/platform (tests, child processes) works.
 */
export function classifyFailure(error: unknown): CallFailure {
  const e = (error ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  // A 2xx whose body did not match (PlatformProtocolError): the platform may hold the claim, so
  // retry — the same identifier turns the retry into ERR-005, which is reconciled by reading it.
  if (e.retryable === false && typeof e.status === "number" && e.name !== "PlatformProtocolError") {
    return {
      kind: "rejected",
      code: str(e.code),
      status: e.status,
      diagnostics: str(e.diagnostics) ?? str(e.message),
      resolution: str(e.resolution),
      field: str(e.field),
      requestId: str(e.requestId),
      existingLocation: str(e.existingLocation),
    };
  }
  const retryAfterMs = typeof e.retryAfterMs === "number" && e.retryAfterMs > 0 ? e.retryAfterMs : 0;
  const reason =
    retryAfterMs > 0 || e.name === "PlatformRateLimitedError"
      ? "rate_limited"
      : e.name === "PlatformProtocolError"
        ? "protocol"
        : (str(e.reason) ?? (e.name === "AbortError" || e.name === "TimeoutError" ? "timeout" : "error"));
  return {
    kind: "transient",
    status: typeof e.status === "number" ? e.status : undefined,
    reason,
    retryAfterMs,
    requestId: str(e.requestId),
  };
}
