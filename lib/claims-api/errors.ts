import { AppError, type ErrorCode } from "@/lib/errors";

/**
 * Errors of the generic claims API (`/v1`): AppErrors of the one catalogue (lib/errors/catalogue.ts),
 * answered as JSON `{ error, reason, message, parameter? }`. `reason` is the finer code this API has
 * always documented; `error` is the catalogue code (and decides the status). `parameter` names the
 * offending query parameter.
 */
export const CLAIMS_API_REASONS = {
  invalid_parameter: "invalid_request",
  credentials_in_url: "invalid_request",
  ambiguous_credentials: "invalid_request",
  unauthorized: "unauthenticated",
  invalid_api_key: "unauthenticated",
  api_key_revoked: "unauthenticated",
  key_wrong_environment: "unauthenticated",
  invalid_token: "unauthenticated",
  insufficient_scope: "forbidden",
  rate_limited: "rate_limited",
  internal: "internal",
} as const satisfies Record<string, ErrorCode>;

export type ClaimsApiReason = keyof typeof CLAIMS_API_REASONS;

/** The catalogue codes /v1 answers with (the OpenAPI `Error.error` enum). */
export const CLAIMS_API_ERROR_CODES: ErrorCode[] = [...new Set(Object.values(CLAIMS_API_REASONS))];

export function claimsApiError(reason: ClaimsApiReason, message: string, extra: { parameter?: string; headers?: Record<string, string> } = {}): AppError {
  return new AppError(CLAIMS_API_REASONS[reason], message, { reason, extra: extra.parameter ? { parameter: extra.parameter } : {}, headers: extra.headers });
}
