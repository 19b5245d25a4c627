import { PLATFORM_ERRORS, platformErrorFromOutcome, type PlatformErrorCode } from "@/lib/fhir";
import type { OperationOutcome } from "@medplum/fhirtypes";

export type { PlatformErrorCode };

/** Endpoint groups the platform counts separately (spec, "Limits"). */
export type RateBucket = "eligibility" | "claims" | "status";

/**
 * The platform answered and said no (an OperationOutcome, or another 4xx). Retrying the same
 * request will not help: the caller fixes the data (ERR-001…004) or reconciles (ERR-005).
 */
/**
 * The process-wide client may be created in a different bundle from the code that catches its
 * errors (Next.js compiles instrumentation, route handlers and server actions separately), so two
 * copies of these classes can exist in one process. `instanceof` therefore checks the error's
 * name, which both copies share, rather than class identity.
 */
function isNamedError(value: unknown, name: string): boolean {
  return value instanceof Error && value.name === name;
}

export class PlatformError extends Error {
  override name = "PlatformError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, "PlatformError");
  }
  readonly retryable = false as const;
  readonly code?: PlatformErrorCode;
  readonly status: number;
  readonly diagnostics?: string;
  /** The spec's resolution text for `code` ("Check the patient identifier" …). */
  readonly resolution?: string;
  /** FHIR path of the element concerned (issue.expression, else the error table's default field). */
  readonly field?: string;
  readonly requestId: string;
  /** ERR-005: `Location` of the platform's copy (`Claim/{id}`). */
  readonly existingLocation?: string;
  /** The OperationOutcome as received, when there was one. */
  readonly outcome?: OperationOutcome;
  /** Messaging: the exchange's own error code (`BV-00027`, `GE-00013` …) beside the element and words. */
  readonly exchangeCode?: string;

  constructor(init: {
    status: number;
    requestId: string;
    code?: PlatformErrorCode;
    diagnostics?: string;
    resolution?: string;
    field?: string;
    existingLocation?: string;
    outcome?: OperationOutcome;
    exchangeCode?: string;
    message?: string;
  }) {
    super(
      init.message ??
        (init.code
          ? `${init.code} ${PLATFORM_ERRORS[init.code].meaning} (HTTP ${init.status}): ${init.resolution ?? PLATFORM_ERRORS[init.code].resolution}`
          : `Platform refused the request (HTTP ${init.status})${init.diagnostics ? `: ${init.diagnostics}` : ""}`),
    );
    this.status = init.status;
    this.requestId = init.requestId;
    this.code = init.code;
    this.diagnostics = init.diagnostics;
    this.resolution = init.resolution;
    this.field = init.field;
    this.existingLocation = init.existingLocation;
    this.outcome = init.outcome;
    this.exchangeCode = init.exchangeCode;
  }

  /**
   * Messaging: the errors a reply message carries (ClaimResponse / CoverageEligibilityResponse
   * `error[]`, Task `output[type=error]`, OperationOutcome entries) → the same typed error, with the
   * first error's code, element and words; the others are listed in `diagnostics`.
   */
  static fromMessageErrors(errors: readonly { code?: string; element?: string; words?: string; source: string }[], status: number, requestId: string): PlatformError {
    const first = errors[0];
    const describe = (e: { code?: string; element?: string; words?: string }) => [e.code, e.element, e.words].filter(Boolean).join(" ");
    const known = first?.code && first.code in PLATFORM_ERRORS ? (first.code as PlatformErrorCode) : undefined;
    return new PlatformError({
      status,
      requestId,
      ...(known ? { code: known } : {}),
      ...(first?.code && !known ? { exchangeCode: first.code } : {}),
      diagnostics: errors.map(describe).join("; ") || "the exchange refused the message",
      ...(first?.words ? { resolution: first.words } : {}),
      ...(first?.element ? { field: first.element } : known ? { field: PLATFORM_ERRORS[known].field } : {}),
      message: `The national exchange refused the message: ${first ? describe(first) : "no reason given"}`,
    });
  }

  /** Maps an OperationOutcome (already schema-checked) to the typed error. */
  static fromOutcome(outcome: OperationOutcome, status: number, requestId: string, location?: string): PlatformError {
    const info = platformErrorFromOutcome(outcome);
    const field = info.expression?.[0] ?? fieldFromDiagnostics(info.diagnostics) ?? (info.code ? PLATFORM_ERRORS[info.code].field : undefined);
    return new PlatformError({
      status,
      requestId,
      code: info.code,
      diagnostics: info.diagnostics,
      resolution: info.resolution,
      field,
      existingLocation: info.code === "ERR-005" ? location : undefined,
      outcome,
    });
  }
}

/** `Claim.item[0].productOrService: …` → `Claim.item[0].productOrService`. */
function fieldFromDiagnostics(diagnostics: string | undefined): string | undefined {
  const match = diagnostics ? /^([A-Z][A-Za-z]+(?:\.[A-Za-z]+(?:\[\d+\])?)+)\b/.exec(diagnostics) : null;
  return match?.[1];
}

/** The platform could not be reached or failed (network error, dropped connection, timeout, 5xx). Retry later. */
export class PlatformUnavailableError extends Error {
  override name = "PlatformUnavailableError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, "PlatformUnavailableError");
  }
  readonly retryable = true as const;
  readonly status?: number;
  readonly requestId: string;
  readonly reason: "network" | "timeout" | "server";
  /** A 503's Retry-After, when the platform sent one. */
  readonly retryAfterMs?: number;

  constructor(init: { reason: "network" | "timeout" | "server"; requestId: string; status?: number; message: string; retryAfterMs?: number; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.reason = init.reason;
    this.requestId = init.requestId;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** A 429 from the platform, or no permit available when the caller chose not to wait. */
export class PlatformRateLimitedError extends Error {
  override name = "PlatformRateLimitedError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, "PlatformRateLimitedError");
  }
  readonly retryable = true as const;
  readonly retryAfterMs: number;
  readonly requestId: string;
  readonly bucket: RateBucket;
  /** True when the platform itself answered 429 (false: the portal's own limiter said wait). */
  readonly fromPlatform: boolean;

  constructor(init: { bucket: RateBucket; retryAfterMs: number; requestId: string; fromPlatform: boolean }) {
    super(
      init.fromPlatform
        ? `Platform rate limit reached for ${init.bucket}; retry in ${Math.ceil(init.retryAfterMs)} ms`
        : `No ${init.bucket} permit available; retry in ${Math.ceil(init.retryAfterMs)} ms`,
    );
    this.bucket = init.bucket;
    this.retryAfterMs = init.retryAfterMs;
    this.requestId = init.requestId;
    this.fromPlatform = init.fromPlatform;
  }
}

/**
 * The platform answered 2xx with a body that is not what the spec says (not JSON, wrong resource,
 * schema violation). Not retryable: the same request will get the same answer; it needs a person
 * (or a platform fix). Kept apart from PlatformUnavailableError so the outbox does not spin on it.
 */
export class PlatformProtocolError extends Error {
  override name = "PlatformProtocolError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, "PlatformProtocolError");
  }
  readonly retryable = false as const;
  readonly status: number;
  readonly requestId: string;
  /** Short description of what did not match (zod issue paths), never the body itself. */
  readonly problems: string[];

  constructor(init: { status: number; requestId: string; message: string; problems?: string[] }) {
    super(init.message);
    this.status = init.status;
    this.requestId = init.requestId;
    this.problems = init.problems ?? [];
  }
}

/** The PLATFORM_* configuration is missing or unusable; the message names the variable (and file). */
export class PlatformConfigError extends Error {
  override name = "PlatformConfigError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, "PlatformConfigError");
  }
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
  }
}

export function isRetryablePlatformError(error: unknown): error is PlatformUnavailableError | PlatformRateLimitedError {
  return error instanceof PlatformUnavailableError || error instanceof PlatformRateLimitedError;
}
