/**
 * The platform client: everything the portal sends to the national platform goes through here
 * (mTLS transport, OAuth token, headers, error mapping, database-shared rate limits). Other modules
 * import only this file. See README.md beside it for the decisions.
 */
import { getDb } from "@/lib/db";
import { getFacility } from "@/lib/facilities";
import { env, type Env } from "@/lib/env";
import { createPlatformClient, type PlatformClient } from "./client";
import { platformConfigFromEnv as configFromEnv, type PlatformConfig } from "./config";
import { createMessagingPlatform } from "./messaging";
import { claimByIdentifierOf, knownClaimsOf, payerLicenseFromDb, payerNameFromDb, sentClaimOf } from "./payer-license";
import { providedSentClaims, type SentClaimReads } from "./sent-claims";
import { facilityConfig } from "./facilities";
import { partiesFromDb } from "./parties";
import { PlatformConfigError } from "./errors";
import type { PlatformPort } from "./port";

export {
  createPlatformClient,
  type PlatformClient,
  type PlatformClientDeps,
  type PlatformClientStats,
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
  type RatePriority,
} from "./rate-limiter";
export { tlsHandshakeCount } from "./transport";
export { facilityConfig } from "./facilities";
export { createMessagingPlatform, stableUuid, type MessagingDeps } from "./messaging";
export { claimByIdentifierOf, knownClaimsOf, payerLicenseFromDb, payerNameFromDb, sentClaimOf, type ClaimByIdentifierResolver, type KnownClaimsResolver, type PayerLicenseResolver, type PayerNameResolver, type PayerTarget, type SentClaimResolver } from "./payer-license";
export { provideSentClaims, type SentClaimReads, type StoredClaimRow } from "./sent-claims";
export type { BatchOutcome, CallOptions, CancelOutcome, ClaimAnswer, ClaimKey, ClaimStatusResult, PaymentNoticeResult, PlatformPort, PlatformProtocol, PolledMessages, PollingPort, ReceivedAnswer } from "./port";
export { canPollMessages, cancelOutcomeOf, claimIdFromLocation, portOf, type PlatformResult, type PortSource } from "./port";
export { createLogger, type LogLevel, type PlatformLogger } from "./logger";
export {
  CERTIFICATE_WARNING_DAYS,
  certificateFacts,
  describePlatform,
  describeFacilities,
  testConnection,
  type CertificateFacts,
  type ConnectionStep,
  type ConnectionStepName,
  type FacilityDescription,
  type PlatformDescription,
} from "./status";

/** The platform settings from the environment; throws PlatformConfigError naming the variable (and file). */
export function platformConfigFromEnv(e?: Env): PlatformConfig {
  return configFromEnv(e ?? env());
}

interface FacilityEntry {
  stamp: number;
  checkedAt: number;
  client: Promise<PlatformClient>;
  port?: Promise<PlatformPort>;
}
const holder = globalThis as typeof globalThis & { __clinicPlatformClient?: Promise<PlatformClient>; __clinicFacilityClients?: Map<string, FacilityEntry> };

/** How long a facility's row is trusted before it is read again (deactivation, new certificate paths). */
const FACILITY_RECHECK_MS = 10_000;

/**
 * The process-wide client of a facility (decision 049): the main one (no id — the environment's
 * connection) or a facility's own, created on first use with its certificate and licence.
 */
export function getPlatformClient(facilityId?: string | null): Promise<PlatformClient> {
  if (facilityId) return facilityEntry(facilityId).then((e) => e.client);
  holder.__clinicPlatformClient ??= (async () => createPlatformClient(platformConfigFromEnv(), { db: await getDb() }))().catch(
    (error: unknown) => {
      holder.__clinicPlatformClient = undefined;
      throw error;
    },
  );
  return holder.__clinicPlatformClient;
}

async function facilityEntry(facilityId: string): Promise<FacilityEntry> {
  const cache = (holder.__clinicFacilityClients ??= new Map<string, FacilityEntry>());
  const cached = cache.get(facilityId);
  const now = Date.now();
  if (cached && now - cached.checkedAt < FACILITY_RECHECK_MS) return cached;
  const db = await getDb();
  const facility = await getFacility(db, facilityId);
  if (!facility) throw new PlatformConfigError(`No facility with id ${facilityId}.`);
  const stamp = facility.updatedAt?.getTime() ?? 0;
  if (cached && cached.stamp === stamp && facility.active) {
    cached.checkedAt = now;
    return cached;
  }
  if (cached) {
    cache.delete(facilityId);
    void cached.client.then((c) => c.close()).catch(() => undefined);
  }
  const config = facilityConfig(platformConfigFromEnv(), facility);
  const entry: FacilityEntry = { stamp, checkedAt: now, client: Promise.resolve(createPlatformClient(config, { db })) };
  cache.set(facilityId, entry);
  return entry;
}

/** Closes every process-wide client (graceful shutdown). */
export async function closePlatformClient(): Promise<void> {
  const pending = holder.__clinicPlatformClient;
  holder.__clinicPlatformClient = undefined;
  portHolder.__clinicPlatformPort = undefined;
  const facilities = [...(holder.__clinicFacilityClients?.values() ?? [])];
  holder.__clinicFacilityClients = undefined;
  await Promise.all([pending, ...facilities.map((f) => f.client)].map(async (p) => (await p?.catch(() => undefined))?.close()));
}
export type { TestConnectionResult } from "./actions";

const portHolder = globalThis as typeof globalThis & { __clinicPlatformPort?: Promise<PlatformPort> };

/**
 * The process-wide platform port in the configured protocol (PLATFORM_PROTOCOL): the REST client
 * itself, or the messaging adapter over it (same transport). Protocol-blind callers use this; a
 * facility's work goes out through its facility's port (null/absent = the main facility).
 */
export function getPlatformPort(facilityId?: string | null): Promise<PlatformPort> {
  if (facilityId) {
    return facilityEntry(facilityId).then(async (entry) => {
      entry.port ??= entry.client.then(async (client) => portFor(client, await getDb()));
      return entry.port;
    });
  }
  portHolder.__clinicPlatformPort ??= (async (): Promise<PlatformPort> => {
    const client = await getPlatformClient();
    return portFor(client, await getDb());
  })().catch((error: unknown) => {
    portHolder.__clinicPlatformPort = undefined;
    throw error;
  });
  return portHolder.__clinicPlatformPort;
}

/**
 * The port of a client in its configured protocol (tests and scripts build their own clients).
 * The messaging adapter reads the claims the portal sent through `sent` (lib/submissions'
 * `sentClaimReads`), by default the reads the composition provided at boot (provideSentClaims).
 */
export function portFor(client: PlatformClient, db: Parameters<typeof payerLicenseFromDb>[0], sent?: SentClaimReads): PlatformPort {
  if (client.config.protocol !== "messaging") return client;
  const reads = sent ?? providedSentClaims(db);
  const provider = {
    id: client.config.providerOrgId,
    license: client.config.providerLicense ?? "PR-CLINIC-001",
    name: client.config.providerName ?? client.config.providerOrgId,
    ...(client.config.providerType ? { providerType: client.config.providerType } : {}),
  };
  return createMessagingPlatform({
    transport: client,
    providerLicense: client.config.providerLicense ?? "PR-CLINIC-001",
    providerOrgId: client.config.providerOrgId,
    payerLicense: payerLicenseFromDb(db, reads),
    payerName: payerNameFromDb(db),
    knownClaims: knownClaimsOf(reads),
    sentClaim: sentClaimOf(reads),
    claimByIdentifier: claimByIdentifierOf(reads),
    ...(client.config.sourceEndpoint ? { sourceEndpoint: client.config.sourceEndpoint } : {}),
    providerFacts: provider,
    parties: partiesFromDb(
      db,
      provider,
      // The clinic's site, named by the provider's licence (an eligibility request asks about it).
      { id: `loc-${client.config.providerOrgId}`.slice(0, 64), license: client.config.providerLicense ?? "PR-CLINIC-001", name: client.config.providerName ?? client.config.providerOrgId },
    ),
  });
}
