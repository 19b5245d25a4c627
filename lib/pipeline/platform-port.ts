import type { Bundle, Claim, ClaimResponse } from "@medplum/fhirtypes";
import type { ClaimResponseView, MessagePart, MessageView } from "@/lib/fhir";

/**
 * The part of the platform client (lib/platform) the pipeline uses, typed structurally so the
 * pipeline's tests can also drive a stand-in. `PlatformClient` from "@/lib/platform" satisfies it.
 * Every ClaimResponse comes with the reader's view the port made of it: the pipeline never reads
 * an answer again (docs/decisions/078).
 */
export interface ExchangeCallOptions {
  requestId?: string;
  signal?: AbortSignal;
  waitForPermit?: boolean;
}

export interface ExchangeResult<T> {
  data: T;
  status: number;
  requestId: string;
  location?: string;
}

export interface ExchangePlatform {
  submitClaim(claim: Claim, options?: ExchangeCallOptions): Promise<ExchangeResult<ClaimResponse> & { view: ClaimResponseView; platformId?: string }>;
  readClaim(platformId: string, options?: ExchangeCallOptions): Promise<ExchangeResult<Claim> & { processingStatus?: string }>;
  searchClaims(
    query: { patient: string; createdOnOrAfter: string },
    options?: ExchangeCallOptions,
  ): Promise<ExchangeResult<Bundle<Claim>>>;
  claimResponses(platformId: string, options?: ExchangeCallOptions): Promise<ExchangeResult<ClaimResponse[]> & { views: ClaimResponseView[] }>;
  /** Where a claim stands, asked by our identifier (and the platform id when known): lib/platform ClaimKey. */
  claimStatus(
    key: { identifier?: { system?: string; value: string }; platformId?: string },
    options?: ExchangeCallOptions,
  ): Promise<{ processingStatus?: string; response?: ClaimResponse; responseView?: ClaimResponseView; platformId?: string; status: number; requestId: string }>;
  /** Messaging: claims sent together as batch-requests; one outcome per claim, in order. */
  submitClaimBatch?(claims: readonly Claim[], options?: ExchangeCallOptions): Promise<({ ok: true; answer: ExchangeResult<ClaimResponse> & { view: ClaimResponseView; platformId?: string } } | { ok: false; error: unknown; batchWide?: boolean })[]>;
  /** REST: `GET /{type}/{id}` of a resource a `resource.available` webhook announced. */
  readResource?(type: string, id: string, options?: ExchangeCallOptions): Promise<ExchangeResult<Record<string, unknown>>>;
}

/** The messaging protocol's poll (lib/platform PlatformPort.pollMessages). */
export interface MessagePolling {
  pollMessages(options?: ExchangeCallOptions & { count?: number; pollId?: string }): Promise<{ messages: MessageView[]; parts: MessagePart[]; more: boolean; requestId: string }>;
}

/** The port speaks messaging when it can poll (no webhooks then). */
export function canPollMessages(client: ExchangePlatform): client is ExchangePlatform & MessagePolling {
  return typeof (client as Partial<MessagePolling>).pollMessages === "function";
}

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

/** `Claim/{id}` (possibly absolute or with `_history`) → id. */
export function claimIdFromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  const m = /(?:^|\/)Claim\/([A-Za-z0-9\-.]{1,64})(?:\/|$)/.exec(location);
  return m?.[1];
}
