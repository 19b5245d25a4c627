import type { ApiEnvironment } from "@/lib/db";
import { env } from "@/lib/env";

/**
 * `CLAIMS_API_RATE_PER_MINUTE` (default 600, validated in lib/env.ts): requests per minute per API
 * key and per OAuth client on /v1, and token requests per client on /oauth/token.
 */
export function claimsApiRatePerMinute(): number {
  return env().CLAIMS_API_RATE_PER_MINUTE;
}

/** The environment keys and clients must belong to: the portal's PLATFORM_ENV. */
export function portalEnvironment(): ApiEnvironment {
  return env().PLATFORM_ENV;
}
