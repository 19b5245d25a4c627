/**
 * Test helpers for the pipeline: a real sandbox (mTLS, port 0, temp folder), the real platform
 * client, a local HTTP server that feeds the sandbox's webhooks to the webhook handler, admin
 * calls, and Claim builders. Not a test file itself.
 */
import type { InboundHandlers } from "../inbound";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db";
import { CODE_SYSTEMS } from "@/lib/fhir";
import { createPlatformClient, type PlatformClient, type PlatformConfig } from "@/lib/platform";
import { sandboxConnection } from "@/lib/platform/testing";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "@/sandbox";
import { handlePlatformWebhook } from "../webhooks";

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function tempDir(prefix = "cx-exchange-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface WebhookRelay {
  url: string;
  /** Deliveries received (any answer). */
  received: number;
  /** When false the relay answers 200 without passing the delivery on (a "missed" webhook). */
  enabled: boolean;
  close(): Promise<void>;
}

/** A tiny HTTP server that turns each POST into a fetch Request for handlePlatformWebhook. */
export interface RelayDeps {
  db: Db;
  /** Read on each delivery, so it may be set after the relay (and the sandbox) started. */
  client?: PlatformClient;
  secret: string;
  pollAfterMs: number;
  fetchTimeoutMs?: number;
  /** Handlers for `resource.available` (inbound.ts). */
  inbound?: InboundHandlers;
}

export async function startWebhookRelay(deps: RelayDeps): Promise<WebhookRelay> {
  const relay = { received: 0, enabled: true } as WebhookRelay;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      relay.received++;
      if (!relay.enabled || !deps.client) {
        res.writeHead(200).end("{}");
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const webReq = new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: "POST", headers, body: Buffer.concat(chunks) });
      handlePlatformWebhook(webReq, {
        db: deps.db,
        client: deps.client,
        secret: deps.secret,
        pollAfterMs: deps.pollAfterMs,
        fetchTimeoutMs: deps.fetchTimeoutMs ?? 3000,
        ...(deps.inbound ? { inbound: deps.inbound } : {}),
      })
        .then(async (answer) => {
          res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
        })
        .catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/platform`;
  relay.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return relay;
}

export interface SandboxHandle {
  sandbox: RunningSandbox;
  dataDir: string;
  config: PlatformConfig;
  admin(method: string, pathAndQuery: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** How many times the sandbox received each business identifier, and how many claims hold it. */
  identifierCounts(): Promise<{ receipts: Map<string, number>; claims: Map<string, number> }>;
  setFaults(faults: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSandbox(options: SandboxOptions & { dataDir?: string } = {}): Promise<SandboxHandle> {
  const dataDir = options.dataDir ?? tempDir("cx-sandbox-");
  // Lenient unless a test asks: the unit suites drive the pipeline with the spec's REST-dialect
  // claims (CPT, no care setting), also through messaging; the exchange's rules on the portal's own
  // messages are held by the browser runs against a strict sandbox (decision 092).
  const sandbox = await startSandbox({ port: 0, quiet: true, adjudicationDelayMs: 50, conformance: "lenient", ...options, dataDir });
  const connection = sandboxConnection(sandbox);
  const { config } = connection;
  const admin = async (method: string, pathAndQuery: string, body?: unknown) => {
    const answer = await connection.admin(method as "GET", pathAndQuery, body);
    return { status: answer.status, body: (answer.body ?? {}) as Record<string, unknown> };
  };
  return {
    sandbox,
    dataDir,
    config,
    admin,
    async identifierCounts() {
      const { body } = await admin("GET", "/_admin/claims");
      const receipts = new Map<string, number>();
      for (const r of body.receipts as { value: string; count: number }[]) receipts.set(r.value, r.count);
      const claims = new Map<string, number>();
      for (const cl of body.claims as { identifier?: { value?: string } | string }[]) {
        const value = typeof cl.identifier === "string" ? cl.identifier : cl.identifier?.value;
        if (value) claims.set(value, (claims.get(value) ?? 0) + 1);
      }
      return { receipts, claims };
    },
    async setFaults(faults) {
      const res = await admin(Object.keys(faults).length ? "PUT" : "DELETE", "/_admin/faults", Object.keys(faults).length ? faults : undefined);
      if (res.status !== 200 && res.status !== 204) throw new Error(`faults: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async close() {
      await sandbox.close();
      await connection.agent.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function testClient(db: Db, config: PlatformConfig): PlatformClient {
  return createPlatformClient(config, { db, tlsCheckIntervalMs: 60_000 });
}

export interface ItemSpec {
  code: string;
  price: number;
  quantity?: number;
}

/** A Claim as the portal's builders would produce it (identifier added when queued). */
export function buildClaim(spec: {
  use: "claim" | "preauthorization";
  patientId?: string;
  coverageId?: string;
  items: ItemSpec[];
  diagnoses?: string[];
}): Record<string, unknown> {
  const today = new Date().toISOString().slice(0, 10);
  const patientId = spec.patientId ?? "1000000001";
  return {
    resourceType: "Claim",
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] },
    use: spec.use,
    patient: { reference: `Patient/${patientId}` },
    created: new Date().toISOString(),
    provider: { reference: "Organization/clinic-001" },
    priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: `Coverage/${spec.coverageId ?? `cov-${patientId}`}` } }],
    diagnosis: (spec.diagnoses ?? ["J06.9"]).map((code, i) => ({
      sequence: i + 1,
      diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code }] },
    })),
    item: spec.items.map((item, i) => ({
      sequence: i + 1,
      productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: item.code }] },
      servicedDate: today,
      quantity: { value: item.quantity ?? 1 },
      unitPrice: { value: item.price, currency: "SAR" },
    })),
  };
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
