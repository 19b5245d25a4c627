import { EXCHANGE_API_BODY_LIMIT_BYTES } from "@/lib/http/limits";
import { z } from "zod";

/**
 * Settings of the provider-side exchange API, read from the environment here (not in lib/env.ts,
 * so this feature stays in its own folder). Defaults suit `npm start` on one machine.
 */
export interface ExchangeApiConfig {
  /** The portal's public base URL, e.g. https://portal.clinic.example (no trailing slash). */
  portalUrl: string;
  /** The JWT audience every client must use: `${portalUrl}/api/exchange`. */
  audience: string;
  /** Requests per organization client per minute. */
  ratePerMinute: number;
  /** The clinic's Organization id at the platform (`provider` of every request). */
  providerOrgId: string;
  /** Largest request body accepted (bytes). */
  maxBodyBytes: number;
  /** Longest JWT lifetime accepted: `exp - iat` (seconds). */
  maxTokenLifetimeSeconds: number;
  /** Clock skew tolerated for `iat`/`exp`/`nbf` (seconds). */
  clockSkewSeconds: number;
}

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PORTAL_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.url({ protocol: /^https?$/, error: "PORTAL_URL must be an http(s):// URL" }).optional()),
  EXCHANGE_API_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  PROVIDER_ORG_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9\-.]{1,64}$/)
    .default("clinic-001"),
});

export class ExchangeApiConfigError extends Error {
  override name = "ExchangeApiConfigError";
}

export function parseExchangeApiConfig(source: Record<string, string | undefined>): ExchangeApiConfig {
  const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v);
  const result = schema.safeParse({
    PORT: blank(source.PORT),
    PORTAL_URL: blank(source.PORTAL_URL),
    EXCHANGE_API_RATE_PER_MINUTE: blank(source.EXCHANGE_API_RATE_PER_MINUTE),
    PROVIDER_ORG_ID: blank(source.PROVIDER_ORG_ID),
  });
  if (!result.success) {
    throw new ExchangeApiConfigError(
      `Invalid configuration:\n${result.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  }
  const e = result.data;
  const portalUrl = (e.PORTAL_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    portalUrl,
    audience: `${portalUrl}/api/exchange`,
    ratePerMinute: e.EXCHANGE_API_RATE_PER_MINUTE,
    providerOrgId: e.PROVIDER_ORG_ID,
    maxBodyBytes: EXCHANGE_API_BODY_LIMIT_BYTES,
    maxTokenLifetimeSeconds: 300,
    clockSkewSeconds: 30,
  };
}

let cached: ExchangeApiConfig | undefined;

/** The configuration from process.env, parsed once. */
export function exchangeApiConfig(): ExchangeApiConfig {
  cached ??= parseExchangeApiConfig(process.env);
  return cached;
}
