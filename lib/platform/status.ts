import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import tls from "node:tls";
import type { Db } from "@/lib/db";
import { createPlatformClient } from "./client";
import { platformConfigFromEnv, type PlatformConfig } from "./config";
import { PlatformError } from "./errors";
import { silentLogger } from "./logger";
import { MAIN_FACILITY_CODE, getFacility, listFacilities } from "@/lib/facilities";
import { facilityConfig } from "./facilities";

/** Facts for the admin settings page: which platform, which client certificate, how long it lasts. */
export type PlatformDescription =
  | {
      configured: true;
      environment: "sandbox" | "production";
      baseUrl: string;
      tokenUrl: string;
      providerOrgId: string;
      certificate: CertificateFacts | { error: string };
    }
  | { configured: false; problem: string; variable?: string };

export interface CertificateFacts {
  subject: string;
  issuer: string;
  serialNumber: string;
  fingerprint256: string;
  notBefore: Date;
  notAfter: Date;
  /** Whole days until notAfter (negative once expired). */
  daysLeft: number;
  /** 30 days or fewer left (and not yet expired). */
  expiresSoon: boolean;
  expired: boolean;
}

export const CERTIFICATE_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

/** "CN=portal\nO=Clinic" → "CN=portal, O=Clinic". */
function distinguishedName(value: string): string {
  return value.split("\n").filter(Boolean).join(", ");
}

export function certificateFacts(pem: string, now: Date = new Date()): CertificateFacts {
  const cert = new X509Certificate(pem);
  const notBefore = new Date(cert.validFrom);
  const notAfter = new Date(cert.validTo);
  const daysLeft = Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS);
  const expired = notAfter.getTime() <= now.getTime();
  return {
    subject: distinguishedName(cert.subject),
    issuer: distinguishedName(cert.issuer),
    serialNumber: cert.serialNumber,
    fingerprint256: cert.fingerprint256,
    notBefore,
    notAfter,
    daysLeft,
    expired,
    expiresSoon: !expired && notAfter.getTime() - now.getTime() <= CERTIFICATE_WARNING_DAYS * DAY_MS,
  };
}

export function describePlatform(options: { config?: PlatformConfig; now?: Date } = {}): PlatformDescription {
  let config: PlatformConfig;
  try {
    config = options.config ?? platformConfigFromEnv();
  } catch (error) {
    const e = error as Error & { variable?: string };
    return { configured: false, problem: e.message, ...(e.variable ? { variable: e.variable } : {}) };
  }
  let certificate: CertificateFacts | { error: string };
  try {
    certificate = certificateFacts(fs.readFileSync(config.tls.certFile, "utf8"), options.now);
  } catch (error) {
    certificate = { error: `PLATFORM_CLIENT_CERT (${config.tls.certFile}): ${(error as Error).message}` };
  }
  return {
    configured: true,
    environment: config.environment,
    baseUrl: config.baseUrl,
    tokenUrl: config.tokenUrl,
    providerOrgId: config.providerOrgId,
    certificate,
  };
}

/** One facility's line in Settings → Platform connection (decision 049). */
export interface FacilityDescription {
  /** null = the main facility (the environment's connection). */
  id: string | null;
  code: string;
  name: { en: string; ar: string } | null;
  providerLicense: string | null;
  active: boolean;
  /** REST: its own OAuth client, or the main one's. */
  ownOAuthClient: boolean;
  certificate: CertificateFacts | { error: string };
}

/** Every facility with its certificate facts: the main one first, then the rows by code. */
export async function describeFacilities(db: Db, options: { config?: PlatformConfig; now?: Date } = {}): Promise<FacilityDescription[]> {
  let main: PlatformConfig | undefined;
  try {
    main = options.config ?? platformConfigFromEnv();
  } catch {
    return [];
  }
  const facts = (file: string | null): CertificateFacts | { error: string } => {
    if (!file) return { error: "no certificate file" };
    try {
      return certificateFacts(fs.readFileSync(file, "utf8"), options.now);
    } catch (error) {
      return { error: `${file}: ${(error as Error).message}` };
    }
  };
  const rows = await listFacilities(db);
  return [
    {
      id: null,
      code: MAIN_FACILITY_CODE,
      name: null,
      providerLicense: main.providerLicense ?? null,
      active: true,
      ownOAuthClient: true,
      certificate: facts(main.tls.certFile),
    },
    ...rows.map((f) => ({
      id: f.id,
      code: f.code,
      name: f.name,
      providerLicense: f.providerLicense,
      active: f.active,
      ownOAuthClient: Boolean(f.oauthClientId),
      certificate: facts(f.certFile),
    })),
  ];
}

export type ConnectionStepName = "tls" | "token" | "status";
export interface ConnectionStep {
  step: ConnectionStepName;
  ok: boolean;
  /** Technical detail (English, shown left-to-right): protocol, expiry, the platform's answer or the error. */
  detail: string;
  ms: number;
}

async function timed(step: ConnectionStepName, run: () => Promise<string>): Promise<ConnectionStep> {
  const started = performance.now();
  try {
    const detail = await run();
    return { step, ok: true, detail, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { step, ok: false, detail: (error as Error).message || String(error), ms: Math.round(performance.now() - started) };
  }
}

/**
 * A TLS handshake with the client certificate to the base URL's host, then one HTTP exchange on
 * that socket: under TLS 1.3 a refused client certificate only shows after the handshake.
 */
function tlsProbe(config: PlatformConfig, timeoutMs: number): Promise<string> {
  const url = new URL(config.baseUrl);
  const port = Number(url.port || 443);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    let settled = false;
    const socket = tls.connect({
      host,
      port,
      ...(net.isIP(host) ? {} : { servername: host }),
      cert: fs.readFileSync(config.tls.certFile),
      key: fs.readFileSync(config.tls.keyFile),
      ...(config.tls.caFile ? { ca: fs.readFileSync(config.tls.caFile) } : {}),
      timeout: timeoutMs,
    });
    const finish = (error: Error | undefined, detail?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(detail ?? "");
    };
    let summary = "";
    socket.once("secureConnect", () => {
      const peer = socket.getPeerCertificate();
      summary = `${socket.getProtocol() ?? "TLS"}; server certificate ${peer.subject?.CN ?? "?"} issued by ${peer.issuer?.CN ?? "?"}`;
      socket.write(`HEAD / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    });
    socket.once("data", (chunk: Buffer) => {
      if (chunk.subarray(0, 5).toString("latin1") === "HTTP/") finish(undefined, `${summary}; client certificate accepted`);
      else finish(new Error(`${summary}; unexpected answer after the handshake`));
    });
    socket.once("timeout", () => finish(new Error(`no TLS answer from ${url.host} within ${timeoutMs} ms`)));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      finish(new Error(summary ? `${summary}; the platform closed the connection — client certificate refused? (${error.code ?? error.message})` : `${error.code ?? ""} ${error.message}`.trim())),
    );
    socket.once("end", () => finish(new Error(summary ? `${summary}; the platform closed the connection — client certificate refused?` : "connection closed during the handshake")));
  });
}

/** The Settings page's connection test: TLS, then token, then one harmless status call. Stops at the first failure. */
export async function testConnection(deps: { db: Db; config?: PlatformConfig; timeoutMs?: number; facilityId?: string | null }): Promise<ConnectionStep[]> {
  let config: PlatformConfig;
  try {
    config = deps.config ?? platformConfigFromEnv();
    if (deps.facilityId) {
      const facility = await getFacility(deps.db, deps.facilityId);
      if (!facility) throw new Error(`No facility with id ${deps.facilityId}.`);
      config = facilityConfig(config, facility);
    }
  } catch (error) {
    return [{ step: "tls", ok: false, detail: (error as Error).message, ms: 0 }];
  }
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const steps: ConnectionStep[] = [];
  steps.push(await timed("tls", () => tlsProbe(config, timeoutMs)));
  if (!steps[0]?.ok) return steps;

  const client = createPlatformClient(
    { ...config, timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs, ...config.timeouts } },
    { db: deps.db, logger: silentLogger },
  );
  try {
    const token = await timed("token", async () => {
      const t = await client.accessToken({ fresh: true, signal: AbortSignal.timeout(timeoutMs) });
      return `access token issued, valid until ${t.expiresAt.toISOString()}${t.scope ? `; scope ${t.scope}` : ""}`;
    });
    steps.push(token);
    if (!token.ok) return steps;
    steps.push(
      await timed("status", async () => {
        try {
          const result = await client.claimResponses("connection-test", { waitForPermit: false, signal: AbortSignal.timeout(timeoutMs) });
          return `GET /ClaimResponse answered ${result.status} (searchset, ${result.data.length} entries); request id ${result.requestId}`;
        } catch (error) {
          if (error instanceof PlatformError && error.status === 404) return `GET /ClaimResponse answered 404: the token was accepted; request id ${error.requestId}`;
          throw error;
        }
      }),
    );
    return steps;
  } finally {
    await client.close();
  }
}
