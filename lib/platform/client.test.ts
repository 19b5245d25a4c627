import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { parseEnv } from "@/lib/env";
import { ManualClock, renewClientCertificate } from "@/sandbox";
import {
  PlatformConfigError,
  PlatformError,
  PlatformProtocolError,
  PlatformRateLimitedError,
  PlatformUnavailableError,
  createPlatformClient,
  platformConfigFromEnv,
  type PlatformClient,
} from "./index";
import { claimFixture, eligibilityRequest, startPlatformSandbox, type PlatformSandbox } from "./testing";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HIGH_LIMITS = { eligibility: 2_000, claims: 2_000, status: 5_000 };

// Every line the sandbox logs: `METHOD /route STATUS X-Request-ID ms` — the server's own view.
const serverLines: string[] = [];
const logger = { info: (line: string) => serverLines.push(line), error: (line: string) => serverLines.push(line) };
const tokenRequestsSeen = () => serverLines.filter((l) => l.startsWith("POST /oauth/token ")).length;

// Outgoing requests as undici sees them (method, path, headers), independent of the client's code.
interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string>;
  responseHeaders?: Record<string, string>;
}
const outgoing: Outgoing[] = [];
const byRequest = new WeakMap<object, Outgoing>();
function headerRecord(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (typeof raw === "string") {
    for (const line of raw.split("\r\n")) {
      const at = line.indexOf(":");
      if (at > 0) out[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
  }
  return out;
}
const onCreate = (message: unknown) => {
  const { request } = message as { request: { method: string; path: string; headers: unknown } };
  const entry = { method: request.method, path: request.path, headers: headerRecord(request.headers) };
  byRequest.set(request, entry);
  outgoing.push(entry);
};
const onHeaders = (message: unknown) => {
  const { request, response } = message as { request: object; response: { headers: unknown[] } };
  const entry = byRequest.get(request);
  if (entry) entry.responseHeaders = headerRecord(response.headers.map((h) => String(h)));
};

let sbx: PlatformSandbox;
let database: Database;
let client: PlatformClient;

beforeAll(async () => {
  diagnostics.subscribe("undici:request:create", onCreate);
  diagnostics.subscribe("undici:request:headers", onHeaders);
  sbx = await startPlatformSandbox({ limits: HIGH_LIMITS, logger });
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  client = createPlatformClient(sbx.config, { db: database.db, limits: { limits: HIGH_LIMITS } });
});

afterAll(async () => {
  diagnostics.unsubscribe("undici:request:create", onCreate);
  diagnostics.unsubscribe("undici:request:headers", onHeaders);
  await client?.close();
  await database?.close();
  await sbx?.stop();
});

afterEach(async () => {
  await sbx.admin("DELETE", "/_admin/faults");
});

describe("headers", () => {
  it("sends Authorization, Accept, Content-Type and a fresh UUID X-Request-ID, echoed and returned", async () => {
    const before = outgoing.length;
    const result = await client.checkEligibility(eligibilityRequest("1000000001", "payer-rimal"));
    expect(result.status).toBe(200);
    expect(result.data.resourceType).toBe("CoverageEligibilityResponse");
    expect(result.requestId).toMatch(UUID_V4);

    const sent = outgoing.slice(before).find((o) => o.path === "/CoverageEligibilityRequest");
    expect(sent?.headers["x-request-id"]).toBe(result.requestId);
    expect(sent?.headers.accept).toBe("application/fhir+json");
    expect(sent?.headers["content-type"]).toBe("application/fhir+json");
    expect(sent?.headers.authorization).toMatch(/^Bearer \S+$/);
    expect(sent?.responseHeaders?.["x-request-id"]).toBe(result.requestId);
    // The sandbox logged the same id for this request.
    expect(serverLines.some((l) => l.startsWith("POST /CoverageEligibilityRequest 200 ") && l.includes(result.requestId))).toBe(true);

    const second = await client.checkEligibility(eligibilityRequest("1000000001", "payer-rimal"));
    expect(second.requestId).not.toBe(result.requestId);
  });

  it("uses the caller's request id, also on GET and in errors", async () => {
    const requestId = randomUUID();
    const result = await client.claimResponses("connection-test", { requestId });
    expect(result.requestId).toBe(requestId);
    expect(result.data).toEqual([]);
    const sent = outgoing.find((o) => o.headers["x-request-id"] === requestId);
    expect(sent?.method).toBe("GET");
    expect(sent?.headers.accept).toBe("application/fhir+json");
    expect(sent?.headers["content-type"]).toBe("application/fhir+json");
    expect(sent?.headers.authorization).toMatch(/^Bearer \S+$/);

    const errorId = randomUUID();
    const error = await client.checkEligibility(eligibilityRequest("1000000003", "payer-rimal"), { requestId: errorId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).requestId).toBe(errorId);
  });
});

describe("client methods", () => {
  it("submits a claim, reads it, searches and lists its responses", async () => {
    const submitted = await client.submitClaim(claimFixture());
    expect(submitted.status).toBe(202);
    expect(submitted.data.resourceType).toBe("ClaimResponse");
    expect(submitted.platformId).toMatch(/^[0-9a-f-]{36}$/);
    expect(submitted.location).toBe(`Claim/${submitted.platformId}`);

    const read = await client.readClaim(submitted.platformId!);
    expect(read.data.id).toBe(submitted.platformId);
    expect(read.processingStatus).toBe("queued");

    const found = await client.searchClaims({ patient: "1000000001", createdOnOrAfter: new Date().toISOString().slice(0, 10) });
    expect(found.data.type).toBe("searchset");
    expect(found.data.entry?.some((e) => e.resource?.id === submitted.platformId)).toBe(true);

    const responses = await client.claimResponses(submitted.platformId!);
    expect(responses.data).toHaveLength(1);
    expect(responses.data[0]?.request?.reference).toBe(`Claim/${submitted.platformId}`);
  });

  it("an authorization request comes back adjudicated (201) with its platform id", async () => {
    const result = await client.submitClaim(claimFixture({ use: "preauthorization", items: [{ code: "70553", price: 2500 }], diagnoses: ["R51"] }));
    expect(result.status).toBe(201);
    expect(result.data.outcome).toBe("complete");
    expect(result.platformId).toBeTruthy();
  });
});

describe("platform errors", () => {
  async function failure(promise: Promise<unknown>): Promise<PlatformError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformError);
    return error as PlatformError;
  }

  it("ERR-001 invalid identifier → 400 on the patient field", async () => {
    const error = await failure(client.checkEligibility(eligibilityRequest("1234567890", "payer-rimal")));
    expect(error).toMatchObject({ code: "ERR-001", status: 400, resolution: "Check the patient identifier", field: "CoverageEligibilityRequest.patient", retryable: false });
    expect(error.diagnostics).toMatch(/patient/);
  });

  it("ERR-002 coverage not found → 404", async () => {
    const error = await failure(client.checkEligibility(eligibilityRequest("1000000003", "payer-rimal")));
    expect(error).toMatchObject({ code: "ERR-002", status: 404, resolution: "Verify the policy", field: "CoverageEligibilityRequest.patient" });
  });

  it("ERR-003 invalid code → 422 on the item's code", async () => {
    const error = await failure(client.submitClaim(claimFixture({ items: [{ code: "00000", price: 100 }] })));
    expect(error).toMatchObject({ code: "ERR-003", status: 422, resolution: "Use a valid code" });
    expect(error.field).toMatch(/^Claim\.item\[0\]/);
  });

  it("ERR-004 missing required field → 422 naming it", async () => {
    const claim = claimFixture();
    delete claim.diagnosis;
    const error = await failure(client.submitClaim(claim));
    expect(error).toMatchObject({ code: "ERR-004", status: 422, resolution: "Complete all fields", field: "Claim.diagnosis" });
  });

  it("ERR-005 duplicate → 409 with the Location of the platform's copy", async () => {
    const claim = claimFixture();
    const first = await client.submitClaim(claim);
    const error = await failure(client.submitClaim(claim));
    expect(error).toMatchObject({ code: "ERR-005", status: 409, resolution: "Check prior claims", existingLocation: `Claim/${first.platformId}` });
    expect(error.field).toMatch(/identifier/);
  });

  it("an unknown claim → 404 PlatformError without a platform code", async () => {
    const error = await failure(client.readClaim(randomUUID()));
    expect(error.status).toBe(404);
    expect(error.code).toBeUndefined();
  });
});

describe("unavailable platform and rate limits", () => {
  it("5xx → PlatformUnavailableError(server)", async () => {
    await sbx.admin("PUT", "/_admin/faults", { errorRate: 1, errorStatus: 503, retryAfterSeconds: 3 });
    const error = await client.checkEligibility(eligibilityRequest("1000000001", "payer-rimal")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(error).toMatchObject({ reason: "server", status: 503, retryable: true, retryAfterMs: 3000 });
  });

  it("a dropped connection → PlatformUnavailableError(network), the POST is not repeated", async () => {
    await sbx.admin("PUT", "/_admin/faults", { dropRate: 1 });
    const before = serverLines.length;
    const error = await client.submitClaim(claimFixture()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(error).toMatchObject({ reason: "network", retryable: true });
    expect((error as PlatformUnavailableError).requestId).toMatch(UUID_V4);
    expect(serverLines.slice(before).filter((l) => l.startsWith("POST /Claim 200") || l.startsWith("POST /Claim 202"))).toHaveLength(0);
  });

  it("no answer within headersTimeout → PlatformUnavailableError(timeout)", async () => {
    const slow = createPlatformClient({ ...sbx.config, timeouts: { headersMs: 300 } }, { db: database.db, limits: { limits: HIGH_LIMITS } });
    try {
      await slow.accessToken();
      await sbx.admin("PUT", "/_admin/faults", { latencyMs: 1_500 });
      const error = await slow.readClaim(randomUUID()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlatformUnavailableError);
      expect(error).toMatchObject({ reason: "timeout" });
    } finally {
      await slow.close();
    }
  });

  it("a 429 → PlatformRateLimitedError and a block row every instance sees", async () => {
    await sbx.admin("PUT", "/_admin/faults", { force429: true, retryAfterSeconds: 2 });
    const error = await client.submitClaim(claimFixture()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformRateLimitedError);
    expect(error).toMatchObject({ bucket: "claims", retryAfterMs: 2000, fromPlatform: true, retryable: true });
    const rows = await database.query<{ bucket: string; until: Date; hits: number }>("select bucket, until, hits from platform_rate_blocks");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.bucket).toBe("claims");
    expect(new Date(rows[0]!.until).getTime()).toBeGreaterThan(Date.now() + 1_000);
    // While blocked, a caller that will not wait is told so without calling the platform.
    await sbx.admin("DELETE", "/_admin/faults");
    const before = serverLines.length;
    const again = await client.submitClaim(claimFixture(), { waitForPermit: false }).catch((e: unknown) => e);
    expect(again).toMatchObject({ name: "PlatformRateLimitedError", fromPlatform: false, bucket: "claims" });
    expect(serverLines.length).toBe(before);
    await database.query("delete from platform_rate_blocks");
  });

  it("an eligibility check waits out a 429 by itself (bounded)", async () => {
    await sbx.admin("PUT", "/_admin/faults", { force429: true, retryAfterSeconds: 1 });
    const before = client.stats().rateLimited;
    setTimeout(() => void sbx.admin("DELETE", "/_admin/faults"), 300);
    const started = Date.now();
    const result = await client.checkEligibility(eligibilityRequest("1000000001", "payer-rimal"));
    expect(result.status).toBe(200);
    expect(client.stats().rateLimited).toBeGreaterThan(before);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await database.query("delete from platform_rate_blocks");
  });
});

describe("malformed answers", () => {
  it("a 2xx body that is not the expected resource → PlatformProtocolError (not retryable)", async () => {
    // A stand-in platform with the sandbox's server certificate: a valid token, then nonsense.
    const pki = path.join(sbx.dataDir, "pki");
    const server = https.createServer(
      { cert: fs.readFileSync(path.join(pki, "server.pem")), key: fs.readFileSync(path.join(pki, "server-key.pem")) },
      (req, res) => {
        req.resume();
        req.on("end", () => {
          if (req.url === "/oauth/token") {
            res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "t", token_type: "Bearer", expires_in: 3600 }));
          } else if (req.url === "/Claim") {
            res.writeHead(202, { "content-type": "application/fhir+json" }).end("{not json");
          } else {
            res.writeHead(200, { "content-type": "application/fhir+json" }).end(JSON.stringify({ resourceType: "Patient", id: "x" }));
          }
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `https://localhost:${(server.address() as AddressInfo).port}`;
    const fake = createPlatformClient({ ...sbx.config, baseUrl: base, tokenUrl: `${base}/oauth/token` }, { db: database.db, limits: { limits: HIGH_LIMITS } });
    try {
      const wrong = await fake.checkEligibility(eligibilityRequest("1000000001", "payer-rimal")).catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(PlatformProtocolError);
      expect(wrong).toMatchObject({ status: 200, retryable: false });
      expect((wrong as PlatformProtocolError).problems.join(" ")).toMatch(/resourceType/);
      const notJson = await fake.submitClaim(claimFixture()).catch((e: unknown) => e);
      expect(notJson).toBeInstanceOf(PlatformProtocolError);
      expect(notJson).toMatchObject({ status: 202 });
    } finally {
      await fake.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("access token", () => {
  it("50 concurrent calls share one token request; a new one is fetched 60 s before expiry", async () => {
    let now = Date.now();
    const fresh = createPlatformClient(sbx.config, { db: database.db, clock: () => new Date(now), limits: { limits: HIGH_LIMITS } });
    try {
      const before = tokenRequestsSeen();
      const results = await Promise.all(Array.from({ length: 50 }, () => fresh.claimResponses(randomUUID())));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(tokenRequestsSeen() - before).toBe(1);
      expect(fresh.stats().tokenRequests).toBe(1);

      now += 3_600_000 - 61_000; // still more than 60 s left: cached
      await fresh.claimResponses(randomUUID());
      expect(tokenRequestsSeen() - before).toBe(1);

      now += 2_000; // less than 60 s left: refreshed, once, even under concurrency
      await Promise.all(Array.from({ length: 50 }, () => fresh.claimResponses(randomUUID())));
      expect(tokenRequestsSeen() - before).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  it("a 401 for an expired token drops it, fetches a new one and retries once", async () => {
    const clock = new ManualClock(Date.now());
    const other = await startPlatformSandbox({ clock, limits: HIGH_LIMITS, logger });
    const c = createPlatformClient(other.config, { db: database.db, limits: { limits: HIGH_LIMITS } });
    try {
      await c.claimResponses(randomUUID());
      expect(c.stats().tokenRequests).toBe(1);
      clock.advance(3_601_000); // the platform now considers the token expired; the client does not know
      const before = serverLines.length;
      const result = await c.claimResponses(randomUUID());
      expect(result.status).toBe(200);
      expect(c.stats().tokenRequests).toBe(2);
      const lines = serverLines.slice(before);
      expect(lines.filter((l) => l.startsWith("GET /ClaimResponse 401"))).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith("GET /ClaimResponse 200"))).toHaveLength(1);
      // Both attempts carried the same request id.
      const ids = lines.filter((l) => l.startsWith("GET /ClaimResponse")).map((l) => l.split(" ")[3]);
      expect(new Set(ids).size).toBe(1);
    } finally {
      await c.close();
      await other.stop();
    }
  });

  it("a renewed client certificate is picked up from disk (new connections, new token)", async () => {
    const other = await startPlatformSandbox({ limits: HIGH_LIMITS });
    const c = createPlatformClient(other.config, { db: database.db, limits: { limits: HIGH_LIMITS }, tlsCheckIntervalMs: 0 });
    try {
      await c.claimResponses(randomUUID());
      await renewClientCertificate(other.dataDir);
      const result = await c.claimResponses(randomUUID());
      expect(result.status).toBe(200);
      expect(c.stats().reloads).toBe(1);
      expect(c.stats().tokenRequests).toBe(2);
    } finally {
      await c.close();
      await other.stop();
    }
  });
});

describe("configuration", () => {
  const base = {
    PLATFORM_BASE_URL: "https://platform.example",
    PLATFORM_TOKEN_URL: "https://platform.example/oauth/token",
    PLATFORM_CLIENT_ID: "id",
    PLATFORM_CLIENT_SECRET: "secret",
  };

  it("names the variable and the path of a missing certificate file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-config-"));
    const key = path.join(dir, "key.pem");
    fs.writeFileSync(key, "x");
    const missing = path.join(dir, "nope", "client.pem");
    try {
      expect(() => platformConfigFromEnv(parseEnv({ ...base, PLATFORM_CLIENT_CERT: missing, PLATFORM_CLIENT_KEY: key }))).toThrow(PlatformConfigError);
      expect(() => platformConfigFromEnv(parseEnv({ ...base, PLATFORM_CLIENT_CERT: missing, PLATFORM_CLIENT_KEY: key }))).toThrow(
        new RegExp(`PLATFORM_CLIENT_CERT points to ${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
      const config = platformConfigFromEnv(parseEnv({ ...base, PLATFORM_CLIENT_CERT: key, PLATFORM_CLIENT_KEY: key, PLATFORM_ENV: "production" }));
      expect(config).toMatchObject({ environment: "production", baseUrl: "https://platform.example", tls: { certFile: key, keyFile: key } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lists every missing variable", () => {
    const error = (() => {
      try {
        platformConfigFromEnv(parseEnv({ PLATFORM_BASE_URL: "https://platform.example" }));
      } catch (e) {
        return e as PlatformConfigError;
      }
    })();
    expect(error).toBeInstanceOf(PlatformConfigError);
    expect(error?.message).toMatch(/PLATFORM_TOKEN_URL, PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET, PLATFORM_CLIENT_CERT, PLATFORM_CLIENT_KEY are not set/);
  });
});
