import { z } from "zod";
import type { ApiEnvironment } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

export const DEFAULT_RATE_PER_MINUTE = 600;

const rate = z.coerce.number().int().min(1).max(1_000_000);

/**
 * `CLAIMS_API_RATE_PER_MINUTE` (default 600): requests per minute per API key and per OAuth
 * client on /v1, and token requests per client on /oauth/token. A bad value is reported and the
 * default used, rather than taking the API down.
 */
export function claimsApiRatePerMinute(source: Record<string, string | undefined> = process.env): number {
  const raw = source.CLAIMS_API_RATE_PER_MINUTE;
  if (raw === undefined || raw.trim() === "") return DEFAULT_RATE_PER_MINUTE;
  const parsed = rate.safeParse(raw);
  if (parsed.success) return parsed.data;
  log("claims-api").warn(`CLAIMS_API_RATE_PER_MINUTE="${raw}" is not a whole number from 1 to 1000000; using ${DEFAULT_RATE_PER_MINUTE}.`);
  return DEFAULT_RATE_PER_MINUTE;
}

/** The environment keys and clients must belong to: the portal's PLATFORM_ENV. */
export function portalEnvironment(): ApiEnvironment {
  return env().PLATFORM_ENV;
}
