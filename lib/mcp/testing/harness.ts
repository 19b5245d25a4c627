import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createGatewayToken } from "@/lib/api-access/credentials";
import type { Database } from "@/lib/db";
import { seedDemoContracts } from "@/lib/contracts";
import { parseGatewayConfig, type GatewayConfig } from "@/lib/gateway";
import { seedDemoPatients } from "@/lib/patients";
import { startOutboxWorker, type OutboxWorker } from "@/lib/submissions";
import { startTestSandbox, testClient, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { createMcp, type Mcp } from "../index";

/**
 * The MCP server on real HTTP for tests, the demo and the bench: a database (PGlite in memory, or
 * PostgreSQL when TEST_DATABASE_URL is set and `postgres` is asked), the sandbox over real mTLS,
 * the outbox worker, the demo patients and contracts, and a node HTTP server that hands every
 * request to lib/mcp exactly as app/mcp/[agent]/route.ts does. Only the Next.js router is left out.
 */
export interface McpHarness {
  url: string;
  database: Database;
  sandbox: SandboxHandle;
  client: PlatformClient;
  config: GatewayConfig;
  mcp: Mcp;
  /** A fresh gateway token (its secret). */
  token(name: string): Promise<{ token: string; id: string }>;
  close(): Promise<void>;
}

export const HARNESS_AGENTS = "ClaimLinc=claim,RecordLinc=record,AuthLinc=authorization,NotifyLinc=notification";

/** Node request → fetch Request → lib/mcp → node response (streamed: wait_for_decision answers SSE). */
export function serve(handle: (request: Request, agent: string) => Promise<Response>): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const match = /^\/mcp\/([^/]+)$/.exec(url.pathname);
      if (!match) {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        signal: controller.signal,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
      } as RequestInit);
      const response = await handle(request, decodeURIComponent(match[1]!));
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (!response.body) {
        res.end();
        return;
      }
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
}

export async function startMcpHarness(options: { ratePerMinute?: number; database?: "pglite" | "postgres"; adjudicationDelayMs?: number } = {}): Promise<McpHarness> {
  const target = testDatabases().find((t) => t.name === (options.database ?? "pglite")) ?? testDatabases()[0]!;
  const database = await target.open();
  const { db } = database;
  const sandbox = await startTestSandbox({ adjudicationDelayMs: options.adjudicationDelayMs ?? 50 });
  const client = testClient(db, sandbox.config);
  const worker: OutboxWorker = startOutboxWorker({
    db,
    client,
    pollMs: 30,
    leaseMs: 30_000,
    maxAttempts: 3,
    backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 },
    pollAfterMs: 300,
    log: () => undefined,
  });
  await seedDemoPatients(db);
  await seedDemoContracts(db);
  const config = parseGatewayConfig({
    GATEWAY_AGENTS: HARNESS_AGENTS,
    PROVIDER_ORG_ID: sandbox.config.providerOrgId,
    PLATFORM_ENV: "sandbox",
    GATEWAY_RATE_PER_MINUTE: String(options.ratePerMinute ?? 100_000),
  });
  let current = config;
  const mcp = createMcp({ database: async () => database, config: () => current, port: client, timeZone: () => "Asia/Riyadh", warn: () => undefined });
  const server = serve((request, agent) => mcp.handle(request, agent));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    database,
    sandbox,
    client,
    get config() {
      return current;
    },
    set config(next: GatewayConfig) {
      current = next;
    },
    mcp,
    async token(name) {
      const created = await createGatewayToken(db, { name });
      return { token: created.token, id: created.record.id };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker.stop(1_000);
      await sandbox.close();
      await database.dispose();
    },
  };
}
