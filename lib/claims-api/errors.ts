/**
 * Errors of the generic claims API (`/v1`): JSON `{ error, message }` with a stable code and the
 * matching HTTP status. `parameter` names the offending query parameter for `invalid_parameter`.
 */
export const CLAIMS_API_ERRORS = {
  invalid_parameter: 400,
  credentials_in_url: 400,
  ambiguous_credentials: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  api_key_revoked: 401,
  key_wrong_environment: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  rate_limited: 429,
  internal_error: 500,
} as const;

export type ClaimsApiErrorCode = keyof typeof CLAIMS_API_ERRORS;

export class ClaimsApiError extends Error {
  override name = "ClaimsApiError";
  readonly status: number;
  constructor(
    readonly code: ClaimsApiErrorCode,
    message: string,
    readonly extra: { parameter?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = CLAIMS_API_ERRORS[code];
  }
}

export const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

export function errorResponse(error: ClaimsApiError, headers: Record<string, string> = {}): Response {
  const body: Record<string, string> = { error: error.code, message: error.message };
  if (error.extra.parameter) body.parameter = error.extra.parameter;
  return new Response(JSON.stringify(body), { status: error.status, headers: { ...JSON_HEADERS, ...headers, ...error.extra.headers } });
}
