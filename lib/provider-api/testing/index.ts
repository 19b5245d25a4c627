/**
 * Helpers for the exchange API's tests (not a test file): organization keys, signed JWTs,
 * requests, and an API wired to a test database and platform client.
 */
import { randomUUID } from "node:crypto";
import { assertReadableByPortal } from "@/lib/fhir/read/testing/own-answers";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from "jose";
import { addOrgKey, ensureOrgClient } from "@/lib/api-access";
import type { Db } from "@/lib/db";
import { portFor, type PlatformClient } from "@/lib/platform";
import { parseProviderApiConfig, type ProviderApiConfig } from "../config";
import { createProviderApi, type ProviderApi } from "../index";

export const TEST_PORTAL_URL = "https://portal.test";
export const TEST_AUDIENCE = `${TEST_PORTAL_URL}/api/exchange`;

export interface TestOrgKey {
  alg: "ES256" | "RS256";
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: Record<string, unknown>;
}

export async function newOrgKey(alg: "ES256" | "RS256" = "ES256", kid: string = `k-${randomUUID().slice(0, 8)}`): Promise<TestOrgKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid };
  return { alg, kid, privateKey, publicKey, publicJwk };
}

/** Creates the org client (if missing) and registers the key. */
export async function registerOrg(db: Db, clientId: string, key: TestOrgKey, name = `Test ${clientId}`): Promise<void> {
  await ensureOrgClient(db, { clientId, name });
  await addOrgKey(db, { clientId, jwk: key.publicJwk });
}

export interface TokenOptions {
  iss?: string;
  sub?: string;
  aud?: string;
  /** Seconds since the epoch. */
  iat?: number;
  exp?: number;
  jti?: string | null;
  kid?: string | null;
  claims?: JWTPayload;
}

export async function signToken(key: TestOrgKey, clientId: string, options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const iat = options.iat ?? now;
  const payload: JWTPayload = { ...options.claims };
  if (options.jti !== null) payload.jti = options.jti ?? randomUUID();
  const header: { alg: string; kid?: string; typ: string } = { alg: key.alg, typ: "JWT" };
  if (options.kid !== null) header.kid = options.kid ?? key.kid;
  return new SignJWT(payload)
    .setProtectedHeader(header)
    .setIssuer(options.iss ?? clientId)
    .setSubject(options.sub ?? clientId)
    .setAudience(options.aud ?? TEST_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(options.exp ?? iat + 120)
    .sign(key.privateKey);
}

export function testConfig(overrides: Partial<ProviderApiConfig> = {}, providerOrgId = "clinic-001"): ProviderApiConfig {
  return { ...parseProviderApiConfig({ PORTAL_URL: TEST_PORTAL_URL, PROVIDER_ORG_ID: providerOrgId }), ...overrides };
}

export function testApi(
  db: Db,
  platform: PlatformClient | undefined,
  config: ProviderApiConfig = testConfig(),
  now?: () => Date,
): ProviderApi {
  return createProviderApi({
    now,
    db: async () => db,
    platform: async () => {
      if (!platform) throw new Error("no platform client in this test");
      return platform;
    },
    port: async () => {
      if (!platform) throw new Error("no platform client in this test");
      return portFor(platform, db);
    },
    config,
    warn: () => {},
  });
}

const BASE = TEST_PORTAL_URL;

export function postFhir(path: string, body: unknown, token?: string, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/fhir+json",
      accept: "application/fhir+json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function getFhir(path: string, token?: string, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}${path}`, {
    method: "GET",
    headers: { accept: "application/fhir+json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** The JSON body; a FHIR resource in it must also parse in the portal's own readers. */
export async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  assertReadableByPortal(body);
  return body;
}
