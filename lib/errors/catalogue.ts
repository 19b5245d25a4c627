import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";

/**
 * THE error catalogue of the portal's machine APIs (docs/decisions/031-error-catalogue-and-api-kernel.md).
 * Every error an API answers is an `AppError` with one of these codes; one table gives each code
 * its HTTP status and how each family renders it:
 *   - `json`  (/v1, /query, /api/*): `{ "error": code, "message": …, "reason"?: …, …extra }`
 *   - `oauth` (/oauth/token, RFC 6749 §5.2): `{ "error": rfc6749Code, "error_description": … }`
 *   - `fhir`  (/api/exchange/**, /fhir/**): an OperationOutcome whose issues carry the code in
 *     `details.coding` (system API_ERROR_SYSTEM).
 * `reason` is a finer, stable sub-code (e.g. `api_key_revoked`, `unknown_agent`) that never
 * changes the status; clients branch on `error`, humans read `message`.
 */
export const API_ERROR_SYSTEM = "https://clinic.example/fhir/CodeSystem/api-error";

export const ERROR_CATALOGUE = {
  /** The request is malformed: unreadable body, wrong type, bad parameter, impossible value. */
  invalid_request: { status: 400, fhir: "invalid", oauth: "invalid_request" },
  /** No credentials, or credentials that are not valid (unknown, expired, revoked, wrong environment). */
  unauthenticated: { status: 401, fhir: "login", oauth: "invalid_client" },
  /** Valid credentials without the right (scope, role). */
  forbidden: { status: 403, fhir: "forbidden", oauth: "unauthorized_client" },
  /** No such resource or endpoint — or none the caller may see. */
  not_found: { status: 404, fhir: "not-found", oauth: "invalid_request" },
  /** The request collides with the current state (a duplicate, a transition not allowed). */
  conflict: { status: 409, fhir: "conflict", oauth: "invalid_request" },
  /** The body is over the family's limit (lib/http/limits.ts). */
  payload_too_large: { status: 413, fhir: "too-costly", oauth: "invalid_request" },
  /** The body's Content-Type is not one this endpoint reads. */
  unsupported_media_type: { status: 415, fhir: "not-supported", oauth: "invalid_request" },
  /** Well-formed, but the content breaks a rule (a required field, a reserved system, a total too large). */
  unprocessable: { status: 422, fhir: "processing", oauth: "invalid_request" },
  /** Over the caller's (or the platform's) rate limit; Retry-After says when to come back. */
  rate_limited: { status: 429, fhir: "throttled", oauth: "rate_limited" },
  /** A fault of the portal itself; the message quotes a request id. */
  internal: { status: 500, fhir: "exception", oauth: "server_error" },
  /** The platform refused the portal or answered nonsense (not the caller's fault). */
  platform_error: { status: 502, fhir: "exception", oauth: "server_error" },
  /** The portal or the platform cannot serve now (misconfiguration, platform down); retry later. */
  unavailable: { status: 503, fhir: "transient", oauth: "temporarily_unavailable" },
} as const satisfies Record<string, { status: number; fhir: OperationOutcomeIssue["code"]; oauth: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** How a family of endpoints answers an error. */
export type ErrorStyle = "json" | "oauth" | "fhir";
export const ERROR_STYLES: readonly ErrorStyle[] = ["json", "oauth", "fhir"];

/** RFC 6749 §5.2 codes a `reason` may name to be answered as such on /oauth/token. */
const OAUTH_CODES = new Set(["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]);

/** One field problem: a path such as `data.claim.item[0].unitPrice` and what is wrong with it. */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  /** Finer stable sub-code (`api_key_revoked`, `unknown_agent`, `missing_field` …); also the audit reason. */
  reason?: string;
  /** Field problems: `issues` in JSON, one OperationOutcome issue each (with `expression`) in FHIR. */
  fields?: FieldIssue[];
  /** Ready-made FHIR issues (e.g. a platform code, ERR-004); used verbatim in the FHIR style. */
  issues?: OperationOutcomeIssue[];
  /** More members of the JSON body (`parameter`, `valid`, `maxBytes`, `retryAfterSeconds` …). */
  extra?: Record<string, unknown>;
  /** Response headers (WWW-Authenticate, Retry-After, RateLimit-*). */
  headers?: Record<string, string>;
}

/** An error answer: thrown anywhere below an API handler, rendered by the kernel in the family's style. */
export class AppError extends Error {
  override name = "AppError";
  readonly status: number;
  readonly reason?: string;
  readonly fields: FieldIssue[];
  readonly issues?: OperationOutcomeIssue[];
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status;
    this.reason = options.reason;
    this.fields = options.fields ?? [];
    this.issues = options.issues;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  /** The same error with more headers (rate headers, a challenge). */
  withHeaders(headers: Record<string, string>): AppError {
    return new AppError(this.code, this.message, { reason: this.reason, fields: this.fields, issues: this.issues, extra: this.extra, headers: { ...this.headers, ...headers } });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

// ---------------------------------------------------------------------------------------------
// Rendering

const BASE_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" };
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
/** (Spelled here rather than imported from lib/fhir so that proxy.ts can render errors without the FHIR schemas.) */
export const FHIR_CONTENT_TYPE = "application/fhir+json; charset=utf-8";

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_CONTENT_TYPE, ...BASE_HEADERS, ...headers } });
}

export function fhirResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": FHIR_CONTENT_TYPE, ...BASE_HEADERS, ...headers } });
}

/** `{error, message, reason?, issues?, …extra}`. */
export function errorJson(error: AppError): Record<string, unknown> {
  return {
    error: error.code,
    message: error.message,
    ...(error.reason ? { reason: error.reason } : {}),
    ...(error.fields.length ? { issues: error.fields.slice(0, 20) } : {}),
    ...error.extra,
  };
}

/** RFC 6749 §5.2: `{error, error_description}`. */
export function errorOAuth(error: AppError): { error: string; error_description: string } {
  const code = error.reason && OAUTH_CODES.has(error.reason) ? error.reason : ERROR_CATALOGUE[error.code].oauth;
  return { error: code, error_description: error.message };
}

/** An OperationOutcome: given issues verbatim, else one issue per field, else one issue. */
export function errorOutcome(error: AppError): OperationOutcome {
  if (error.issues?.length) return { resourceType: "OperationOutcome", issue: error.issues };
  const code = ERROR_CATALOGUE[error.code].fhir;
  const details = { coding: [{ system: API_ERROR_SYSTEM, code: error.code }], ...(error.reason ? { text: error.reason } : {}) };
  const issue: OperationOutcomeIssue[] = error.fields.length
    ? error.fields.slice(0, 20).map((f) => ({ severity: "error", code, details, diagnostics: `${f.path}: ${f.message}`, expression: [f.path] }))
    : [{ severity: "error", code, details, diagnostics: error.message }];
  return { resourceType: "OperationOutcome", issue };
}

/** The error as a response in the family's style. */
export function renderError(error: AppError, style: ErrorStyle, headers: Record<string, string> = {}): Response {
  const all = { ...error.headers, ...headers };
  switch (style) {
    case "fhir":
      return fhirResponse(errorOutcome(error), error.status, all);
    case "oauth":
      return new Response(JSON.stringify(errorOAuth(error)), {
        status: error.status,
        headers: { "content-type": "application/json;charset=UTF-8", "cache-control": "no-store", pragma: "no-cache", "x-content-type-options": "nosniff", ...all },
      });
    default:
      return jsonResponse(errorJson(error), error.status, all);
  }
}

/** zod issue path → `a.b[0].c` under `prefix`. */
export function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string") out += out ? `.${p}` : p;
  }
  return out || "(body)";
}

/** The catalogue code of an HTTP error status (a 4xx not in the table is `unprocessable`, a 5xx `internal`). */
export function codeForStatus(status: number): ErrorCode {
  const found = ERROR_CODES.find((code) => ERROR_CATALOGUE[code].status === status);
  if (found) return found;
  return status >= 500 ? "internal" : status === 405 ? "not_found" : "unprocessable";
}
