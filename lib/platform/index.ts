/**
 * The platform client: everything the portal sends to the national platform goes through here
 * (mTLS transport, OAuth token, headers, error mapping, database-shared rate limits). Other modules
 * import only this file. See README.md beside it for the decisions.
 */
import { getDb } from "@/lib/db";
import { env, type Env } from "@/lib/env";
import { createPlatformClient, type PlatformClient } from "./client";
import { platformConfigFromEnv as configFromEnv, type PlatformConfig } from "./config";
import { createMessagingPlatform } from "./messaging";
import { payerLicenseFromDb } from "./payer-license";
import type { PlatformPort } from "./port";

export {
  createPlatformClient,
  claimIdFromLocation,
  type CallOptions,
  type PlatformClient,
  type PlatformClientDeps,
  type PlatformClientStats,
  type PlatformResult,
} from "./client";
export { DEFAULT_TIMEOUTS, type PlatformConfig, type PlatformTimeouts } from "./config";
export {
  PlatformConfigError,
  PlatformError,
  PlatformProtocolError,
  PlatformRateLimitedError,
  PlatformUnavailableError,
  isRetryablePlatformError,
  type PlatformErrorCode,
  type RateBucket,
} from "./errors";
export {
  DEFAULT_RATE_LIMIT_CONFIG,
  PLATFORM_RATE_LIMITS,
  PlatformRateLimiter,
  type PermitDecision,
  type RateLimitConfig,
} from "./rate-limiter";
export { tlsHandshakeCount } from "./transport";
export { createMessagingPlatform, stableUuid, type MessagingDeps } from "./messaging";
export { payerLicenseFromDb, type PayerLicenseResolver, type PayerTarget } from "./payer-license";
export type { PlatformPort, PlatformProtocol, PolledMessages } from "./port";
export { createLogger, type LogLevel, type PlatformLogger } from "./logger";
export {
  CERTIFICATE_WARNING_DAYS,
  certificateFacts,
  describePlatform,
  testConnection,
  type CertificateFacts,
  type ConnectionStep,
  type ConnectionStepName,
  type PlatformDescription,
} from "./status";

/** The platform settings from the environment; throws PlatformConfigError naming the variable (and file). */
export function platformConfigFromEnv(e?: Env): PlatformConfig {
  return configFromEnv(e ?? env());
}

const holder = globalThis as typeof globalThis & { __clinicPlatformClient?: Promise<PlatformClient> };

/** The process-wide client, created on first use from the environment and getDb(). */
export function getPlatformClient(): Promise<PlatformClient> {
  holder.__clinicPlatformClient ??= (async () => createPlatformClient(platformConfigFromEnv(), { db: await getDb() }))().catch(
    (error: unknown) => {
      holder.__clinicPlatformClient = undefined;
      throw error;
    },
  );
  return holder.__clinicPlatformClient;
}

/** Closes the process-wide client (graceful shutdown). */
export async function closePlatformClient(): Promise<void> {
  const pending = holder.__clinicPlatformClient;
  holder.__clinicPlatformClient = undefined;
  portHolder.__clinicPlatformPort = undefined;
  if (pending) await (await pending.catch(() => undefined))?.close();
}
export type { TestConnectionResult } from "./actions";

const portHolder = globalThis as typeof globalThis & { __clinicPlatformPort?: Promise<PlatformPort> };

/**
 * The process-wide platform port in the configured protocol (PLATFORM_PROTOCOL): the REST client
 * itself, or the messaging adapter over it (same transport). Protocol-blind callers use this.
 */
export function getPlatformPort(): Promise<PlatformPort> {
  portHolder.__clinicPlatformPort ??= (async (): Promise<PlatformPort> => {
    const client = await getPlatformClient();
    return portFor(client, await getDb());
  })().catch((error: unknown) => {
    portHolder.__clinicPlatformPort = undefined;
    throw error;
  });
  return portHolder.__clinicPlatformPort;
}

/** The port of a client in its configured protocol (tests and scripts build their own clients). */
export function portFor(client: PlatformClient, db: Parameters<typeof payerLicenseFromDb>[0]): PlatformPort {
  if (client.config.protocol !== "messaging") return client;
  return createMessagingPlatform({
    transport: client,
    providerLicense: client.config.providerLicense ?? "PR-CLINIC-001",
    providerOrgId: client.config.providerOrgId,
    payerLicense: payerLicenseFromDb(db),
  });
}
