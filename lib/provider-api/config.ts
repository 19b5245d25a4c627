import { env, parseEnv, portalUrl, type Env } from "@/lib/env";
import { EXCHANGE_API_BODY_LIMIT_BYTES } from "@/lib/http";

/**
 * The provider-side exchange API's view of the configuration (PORTAL_URL, PORT,
 * EXCHANGE_API_RATE_PER_MINUTE, PROVIDER_ORG_ID: declared and validated in lib/env.ts) plus its
 * fixed limits. Defaults suit `npm start` on one machine.
 */
export interface ProviderApiConfig {
  /** The portal's public base URL, e.g. https://portal.clinic.example (no trailing slash). */
  portalUrl: string;
  /** The JWT audience every client must use: `${portalUrl}/api/exchange`. */
  audience: string;
  /** Requests per organization client per minute. */
  ratePerMinute: number;
  /** The clinic's Organization id at the platform (`provider` of every request). */
  providerOrgId: string;
  /** Sandbox test identities (1000000000–1000000099) pass the national-ID check only in the sandbox (PLATFORM_ENV). */
  allowSandboxTestIds: boolean;
  /** PLATFORM_PROTOCOL: how the portal speaks to the platform (messaging refuses CPT lines). */
  protocol: "rest" | "messaging";
  /** Largest request body accepted (bytes). */
  maxBodyBytes: number;
  /** Longest JWT lifetime accepted: `exp - iat` (seconds). */
  maxTokenLifetimeSeconds: number;
  /** Clock skew tolerated for `iat`/`exp`/`nbf` (seconds). */
  clockSkewSeconds: number;
}

export function providerApiConfigFrom(e: Env): ProviderApiConfig {
  const base = portalUrl(e);
  return {
    portalUrl: base,
    audience: `${base}/api/exchange`,
    ratePerMinute: e.EXCHANGE_API_RATE_PER_MINUTE,
    providerOrgId: e.PROVIDER_ORG_ID,
    allowSandboxTestIds: e.PLATFORM_ENV === "sandbox",
    protocol: e.PLATFORM_PROTOCOL,
    maxBodyBytes: EXCHANGE_API_BODY_LIMIT_BYTES,
    maxTokenLifetimeSeconds: 300,
    clockSkewSeconds: 30,
  };
}

/** For tests: the view of a given set of variables (throws ConfigError naming a bad one). */
export function parseProviderApiConfig(source: Record<string, string | undefined>): ProviderApiConfig {
  return providerApiConfigFrom(parseEnv(source));
}

/** The configuration of this process. */
export function providerApiConfig(): ProviderApiConfig {
  return providerApiConfigFrom(env());
}
