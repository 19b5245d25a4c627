import { randomUUID } from "node:crypto";
import { ConformanceTally } from "./conformance-tally";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { TLSSocket } from "node:tls";
import { AnswerStyleSetting, type AnswerStyle } from "./answer-style";
import { ClaimsEngine } from "./claims-engine";
import { systemClock, type Clock } from "./clock";
import type { Conformance, SandboxContext } from "./context";
import { Faults } from "./faults";
import { ApiError, outcomeReply, writeReply, type Reply } from "./http";
import { consoleLogger, silentLogger, type Logger } from "./logger";
import { loadTokenKeys } from "./oauth";
import { certificateThumbprint, ensureSandboxPki, RegisteredClientCertificate } from "./pki";
import { DEFAULT_RATE_LIMITS, DEFAULT_RATE_WINDOW_MS, RateLimiter, type RateLimits } from "./rate-limit";
import { buildReferenceData, DEFAULT_PROVIDER_ORG_ID } from "./reference-data";
import { adminPattern, handleAdmin, isAdminPath } from "./routes/admin";
import { handleFhir, matchFhirRoute, routePattern } from "./routes/fhir";
import { handleToken } from "./routes/token";
import { ensureSandboxSecrets } from "./secrets";
import { SandboxStore } from "./store";
import { Mailbox } from "./mailbox";
import { FacilityCertificates } from "./facilities";
import { AutoRemitter } from "./remittances";
import { DEFAULT_WEBHOOK_RETRY, WebhookDispatcher, type WebhookRetryPolicy } from "./webhooks";
import { readSandboxCredentials, type SandboxCredentials } from "./credentials";

import { DEFAULT_ADJUDICATION_DELAY_MS, DEFAULT_SANDBOX_DATA_DIR, DEFAULT_SANDBOX_PORT } from "./defaults";
import { DEFAULT_MAX_REFILLS } from "./prescriptions";

export { DEFAULT_ADJUDICATION_DELAY_MS, DEFAULT_SANDBOX_DATA_DIR, DEFAULT_SANDBOX_PORT };
/** Attachments up to 10 MB travel base64-encoded (~13.4 MB) inside the Claim. */
/** Room for the portal's largest authorization: 20 MB of attachments, base64-encoded (≈ 26.7 MB), plus the Claim. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface SandboxOptions {
  /** TCP port; 0 picks a free one. Default 9443. */
  port?: number;
  /** Address to listen on. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Data folder (PKI, secrets, journal). Default `.sandbox` in the working directory. */
  dataDir?: string;
  /** Where `claim.status.changed` webhooks are POSTed; unset → recorded, not sent. */
  webhookUrl?: string;
  /** Overrides the generated webhook secret (`whsec_<base64>`). */
  webhookSecret?: string;
  webhookRetry?: Partial<WebhookRetryPolicy>;
  clock?: Clock;
  limits?: Partial<RateLimits>;
  rateWindowMs?: number;
  /** Delay of each asynchronous claim step (queued → pended → adjudicated). Default 3000 ms. */
  adjudicationDelayMs?: number;
  providerOrgId?: string;
  logger?: Logger;
  /** Shorthand for a silent logger. */
  quiet?: boolean;
  /** Random source for fault injection (tests). */
  random?: () => number;
  maxBodyBytes?: number;
  /** Form of the answers at start (`SANDBOX_ANSWER_STYLE`); changed at run time via /_admin/answer-style. */
  answerStyle?: AnswerStyle;
  /** Pay decided claims automatically this long after their decision (sandbox/remittances.ts AutoRemitter); 0/absent = off. */
  autoRemitMs?: number;
  /** strict | lenient message checking (SANDBOX_CONFORMANCE, docs/decisions/072); strict when absent. */
  conformance?: Conformance;
  /** Unsolicited evidence about a partly approved decision: approve (reissued in full, the default) | off (SANDBOX_EVIDENCE_REISSUE, decision 115). */
  evidenceReissue?: "approve" | "off";
  /** The most refills approved on one prescription line (SANDBOX_MAX_REFILLS); 3 when absent. */
  maxRefills?: number;
}

export interface RunningSandbox {
  url: string;
  port: number;
  dataDir: string;
  credentials: SandboxCredentials;
  close(): Promise<void>;
}

const lockedDirs = new Set<string>();

function acquireLock(dataDir: string): () => void {
  const file = path.join(dataDir, "sandbox.lock");
  const take = () => {
    const fd = fs.openSync(file, "wx", 0o600);
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
  };
  try {
    take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const pid = Number(fs.readFileSync(file, "utf8").trim());
    const alive = (() => {
      if (!Number.isInteger(pid) || pid <= 0) return false;
      if (pid === process.pid) return lockedDirs.has(dataDir);
      try {
        process.kill(pid, 0);
        return true;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === "EPERM";
      }
    })();
    if (alive) throw new Error(`another sandbox (pid ${pid}) is using ${dataDir}; stop it or use another SANDBOX_DATA_DIR`);
    fs.rmSync(file, { force: true });
    take();
  }
  lockedDirs.add(dataDir);
  return () => {
    lockedDirs.delete(dataDir);
    fs.rmSync(file, { force: true });
  };
}

const thumbprints = new WeakMap<TLSSocket, string>();

function peerThumbprint(socket: TLSSocket): string | undefined {
  const cached = thumbprints.get(socket);
  if (cached) return cached;
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.raw) return undefined;
  const value = certificateThumbprint(cert.raw);
  thumbprints.set(socket, value);
  return value;
}

function sanitizeRequestId(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && /^[\x21-\x7e]{1,128}$/.test(v) ? v : undefined;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_SANDBOX_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const logger = options.quiet ? silentLogger : (options.logger ?? consoleLogger);
  const clock = options.clock ?? systemClock;
  const providerOrgId = options.providerOrgId ?? DEFAULT_PROVIDER_ORG_ID;

  const releaseLock = acquireLock(dataDir);
  let store: SandboxStore | undefined;
  try {
    const pki = await ensureSandboxPki(dataDir);
    const secrets = ensureSandboxSecrets(dataDir);
    const webhookSecret = options.webhookSecret ?? secrets.webhookSecret;
    store = SandboxStore.open(dataDir, (bytes) => logger.error(`journal: cut off a torn last line (${bytes} bytes)`));
    const reference = buildReferenceData(providerOrgId);
    const rateWindowMs = options.rateWindowMs ?? DEFAULT_RATE_WINDOW_MS;
    const webhooks = new WebhookDispatcher({
      store,
      clock,
      logger,
      url: options.webhookUrl || undefined,
      secret: webhookSecret,
      retry: { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry },
    });
    const engine = new ClaimsEngine({
      store,
      reference,
      clock,
      webhooks,
      logger,
      delayMs: options.adjudicationDelayMs ?? DEFAULT_ADJUDICATION_DELAY_MS,
    });
    let baseUrl = "";
    const ctx: SandboxContext = {
      baseUrl: () => baseUrl,
      providerOrgId,
      reference,
      store,
      engine,
      webhooks,
      mailbox: new Mailbox({ store, webhooks, clock }),
      faults: new Faults(options.random),
      answerStyle: new AnswerStyleSetting(options.answerStyle),
      limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...options.limits }, rateWindowMs, clock),
      rateWindowMs,
      clock,
      logger,
      secrets: { ...secrets, webhookSecret },
      tokenKeys: loadTokenKeys(secrets.tokenSigningKey),
      registered: new RegisteredClientCertificate(pki.paths.client),
      facilities: new FacilityCertificates(dataDir),
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      messageDeliveries: new Set(),
      pollReplies: new Map(),
      conformance: options.conformance ?? "strict",
      evidenceReissue: options.evidenceReissue ?? "approve",
      maxRefills: options.maxRefills ?? DEFAULT_MAX_REFILLS,
      conformanceTally: new ConformanceTally(path.join(dataDir, "conformance.json")),
    };

    const server = https.createServer(
      {
        key: pki.server.keyPem,
        cert: pki.server.certPem,
        ca: pki.ca,
        requestCert: true,
        rejectUnauthorized: true,
        minVersion: "TLSv1.2",
      },
      (req, res) => {
        void handleRequest(req, res, ctx);
      },
    );
    server.keepAliveTimeout = 30_000;
    server.on("tlsClientError", () => {
      // Refused handshakes (no certificate, foreign CA) are expected; nothing to log per attempt.
    });

    const port = options.port ?? DEFAULT_SANDBOX_PORT;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, options.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const actualPort = (server.address() as AddressInfo).port;
    baseUrl = `https://localhost:${actualPort}`;

    engine.resume();
    const autoRemitter = new AutoRemitter(ctx, options.autoRemitMs ?? 0);
    autoRemitter.start();
    webhooks.resume();
    if (pki.created) logger.info(`sandbox PKI written to ${pki.paths.dir}`);

    let closing: Promise<void> | undefined;
    const openStore = store;
    return {
      url: baseUrl,
      port: actualPort,
      dataDir,
      credentials: readSandboxCredentials(dataDir, actualPort, { providerOrgId, webhookSecret }),
      close: () => {
        closing ??= new Promise<void>((resolve) => {
          engine.close();
          ctx.conformanceTally.flush();
          autoRemitter.close();
          webhooks.close();
          server.close(() => {
            openStore.close();
            releaseLock();
            resolve();
          });
          server.closeAllConnections();
        });
        return closing;
      },
    };
  } catch (error) {
    store?.close();
    releaseLock();
    throw error;
  }
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext): Promise<void> {
  const started = performance.now();
  const method = req.method ?? "GET";
  const requestId = sanitizeRequestId(req.headers["x-request-id"]) ?? randomUUID();
  res.setHeader("X-Request-ID", requestId);
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "https://localhost");
  } catch {
    url = new URL("https://localhost/");
  }
  let pattern = url.pathname.length > 64 ? "(long path)" : "(unknown)";
  let dropped = false;
  res.on("close", () => {
    const ms = (performance.now() - started).toFixed(1);
    const status = dropped || !res.writableFinished ? "dropped" : String(res.statusCode);
    ctx.logger.info(`${method} ${pattern} ${status} ${requestId} ${ms}ms`);
  });

  const socket = req.socket as TLSSocket;
  const thumbprint = peerThumbprint(socket);
  try {
    if (!thumbprint) {
      // Cannot happen with rejectUnauthorized, but never serve a request without a certificate.
      throw ApiError.plain(401, "security", "A client certificate is required");
    }
    if (isAdminPath(url.pathname)) {
      pattern = adminPattern(url.pathname);
      writeReply(res, await handleAdmin(req, url, ctx));
      return;
    }

    const fhirRoute = matchFhirRoute(method, url.pathname);
    const isToken = url.pathname === "/oauth/token";
    if (isToken) pattern = "/oauth/token";
    else if (fhirRoute && fhirRoute.name !== "method-not-allowed") pattern = routePattern(fhirRoute);
    else if (fhirRoute) pattern = url.pathname.startsWith("/Claim/") ? "/Claim/:id" : url.pathname;

    // Fault injection (platform routes and token endpoint).
    const faults = ctx.faults.get();
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (ctx.faults.roll(faults.dropRate)) {
      dropped = true;
      req.socket.destroy();
      return;
    }
    if (faults.force429) {
      throw ApiError.plain(429, "throttled", "Rate limit exceeded (injected fault)", { "Retry-After": String(faults.retryAfterSeconds) });
    }
    if (ctx.faults.roll(faults.errorRate)) {
      const headers: Record<string, string> = faults.errorStatus === 503 ? { "Retry-After": String(faults.retryAfterSeconds) } : {};
      throw ApiError.plain(faults.errorStatus, "transient", "Temporary platform failure (injected fault)", headers);
    }

    let reply: Reply;
    if (isToken) {
      if (method !== "POST") {
        req.resume();
        reply = { status: 405, body: { error: "invalid_request", error_description: "use POST" }, kind: "json", headers: { Allow: "POST" } };
      } else {
        reply = await handleToken(req, thumbprint, ctx);
      }
    } else if (!fhirRoute) {
      req.resume();
      throw ApiError.plain(404, "not-found", `No such endpoint: ${method} ${url.pathname.slice(0, 64)}`);
    } else if (fhirRoute.name === "method-not-allowed") {
      req.resume();
      throw ApiError.plain(405, "not-supported", `Method ${method} is not allowed here`, { Allow: fhirRoute.allow });
    } else {
      reply = await handleFhir(req, url, fhirRoute, thumbprint, ctx);
    }

    if (ctx.faults.roll(faults.dropAfterProcessingRate)) {
      dropped = true;
      req.socket.destroy();
      return;
    }
    writeReply(res, reply);
  } catch (error) {
    if (error instanceof ApiError) {
      writeReply(res, outcomeReply(error));
      return;
    }
    ctx.logger.error(`internal error on ${method} ${pattern}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    writeReply(res, outcomeReply(ApiError.plain(500, "exception", "Internal sandbox error")));
  }
}
