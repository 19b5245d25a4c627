import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createApiKey, revokeApiKey } from "@/lib/api-access/credentials";
import { handleTokenRequest } from "@/lib/api";
import { createOAuthClient } from "@/lib/api-access/oauth";
import { hashSecret } from "@/lib/api-access/secrets";
import { apiKeys, auditEvents, oauthClients, SUBMISSION_STATUSES } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { handleListClaims, type ClaimsApiDeps } from "./handler";
import { CLAIMS_API_SCHEMAS, openApiDocument } from "./openapi";
import { CLAIMS_PARAMETERS } from "./params";
import { CLAIMS_API_ERROR_CODES, CLAIMS_API_REASONS } from "./errors";
import { insertSubmissions, seedVolume } from "@/lib/submissions/testing";

const BASE = "https://portal.test/v1/claims";
const CLAIMS = 10_000;

interface Page {
  data: Record<string, unknown>[];
  next_cursor: string | null;
  has_more: boolean;
}

describe.each(testDatabases())("GET /v1/claims on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let key: string;
  let deps: ClaimsApiDeps;

  const get = (query = "", headers: Record<string, string> = { "x-api-key": key }, d: Partial<ClaimsApiDeps> = {}) =>
    handleListClaims(new Request(`${BASE}${query}`, { headers }), { ...deps, ...d });

  /** Every claim id in API order, straight from SQL. */
  const expectedIds = async (where = "true", params: unknown[] = []) =>
    (await database.query<{ id: string }>(`select id from submissions where kind = 'claim' and ${where} order by created_at desc, id desc`, params)).map((r) => r.id);

  beforeAll(async () => {
    database = await target.open();
    deps = { db: database.db, environment: "sandbox", ratePerMinute: 100_000 };
    // Ties: many claims share one created_at, so the id tie-break and microseconds matter.
    await seedVolume(database, { claims: CLAIMS, batchSize: CLAIMS, authorizationRatio: 0.05, ties: true });
    key = (await createApiKey(database.db, { name: "BI tool", environment: "sandbox", scopes: ["claims:read"] })).key;
    // Seeding thousands of claims through the dashboard triggers on PGlite (WASM) takes a minute
    // or more on a busy 2-core machine.
  }, 300_000);
  afterAll(async () => database?.dispose());

  it("pages through every claim exactly once, newest first, stable under inserts", async () => {
    const expected = await expectedIds();
    expect(expected).toHaveLength(CLAIMS);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(`?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      // The served page is what the OpenAPI document (generated from this schema) says.
      const parsed = CLAIMS_API_SCHEMAS.ClaimPage.schema.safeParse(page);
      expect(parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe("");
      seen.push(...page.data.map((c) => c.id as string));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
      if (++pages === 3) {
        // New claims arrive while a client pages: they are newer than the walk and never shift it.
        const now = new Date();
        await insertSubmissions(database.db, Array.from({ length: 5 }, () => ({ kind: "claim" as const, status: "draft" as const, patientNationalId: "1000000001", claim: {}, createdAt: now })));
      }
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(CLAIMS);
  });

  it("shows the documented shape with exact money strings", async () => {
    const response = await get("?status=complete&limit=5");
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.headers.get("ratelimit-limit")).toBe("100000");
    const page = (await response.json()) as Page;
    expect(page.data).toHaveLength(5);
    const schema = (openApiDocument() as { components: { schemas: Record<string, { required: string[] }> } }).components.schemas;
    for (const claim of page.data) {
      expect(Object.keys(claim).sort()).toEqual([...schema.Claim!.required].sort());
      expect(claim).toMatchObject({ status: "complete", use: "claim", total: { value: expect.stringMatching(/^\d+\.\d{2}$/), currency: "SAR" } });
      const money = (m: unknown) => Math.round(Number((m as { value: string }).value) * 100);
      const row = (await database.query<{ total_minor: number }>(`select total_minor from submissions where id = $1`, [claim.id]))[0]!;
      expect(money(claim.total)).toBe(row.total_minor);
      expect(money(claim.benefit) + money(claim.patient_share)).toBeLessThanOrEqual(row.total_minor);
      expect((claim.payment as { amount: unknown }).amount).toEqual(claim.benefit);
      expect(typeof claim.decided_at).toBe("string");
    }
  });

  it("filters by status (one or several), patient and creation time", async () => {
    const several = (await (await get("?status=denied,failed,pended&limit=100")).json()) as Page;
    expect(several.data.map((c) => c.id)).toEqual((await expectedIds(`status in ('denied','failed','pended')`)).slice(0, 100));
    // Walk the multi-status list to its end through the merged plan too.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await get(`?status=failed,cancelled&limit=100${cursor ? `&cursor=${cursor}` : ""}`)).json()) as Page;
      walked.push(...page.data.map((c) => c.id as string));
      cursor = page.next_cursor;
    } while (cursor);
    expect(walked).toEqual(await expectedIds(`status in ('failed','cancelled')`));

    const patient = (await database.query<{ patient_id: string }>(`select patient_id from submissions where kind = 'claim' group by 1 order by count(*) desc limit 1`))[0]!.patient_id;
    const byPatient = (await (await get(`?patient=${patient}&limit=100`)).json()) as Page;
    expect(byPatient.data.map((c) => c.id)).toEqual(await expectedIds(`patient_id = $1`, [patient]));
    expect(byPatient.data.length).toBeGreaterThan(1);

    const window = (await (await get(`?created_gte=2026-06-01&created_lt=2026-06-15T12:00:00%2B03:00&limit=100`)).json()) as Page;
    expect(window.data.map((c) => c.id)).toEqual(
      (await expectedIds(`created_at >= '2026-06-01T00:00:00Z' and created_at < '2026-06-15T09:00:00Z'`)).slice(0, 100),
    );
  });

  it("answers bad parameters with 400 invalid_parameter naming the parameter", async () => {
    for (const [query, parameter] of [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=abc", "limit"],
      ["?status=paid", "status"],
      ["?status=complete,", "status"],
      ["?created_gte=2026-02-30", "created_gte"],
      ["?created_lt=yesterday", "created_lt"],
      ["?cursor=bm90LWEtY3Vyc29y", "cursor"],
      ["?patient=%27%20or%201%3D1", "patient"],
      ["?sort=asc", "sort"],
      ["?limit=5&limit=6", "limit"],
    ] as const) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: string; message: string; parameter: string };
      expect(body, query).toMatchObject({ error: "invalid_request", reason: "invalid_parameter", parameter });
      expect(body.message.length).toBeGreaterThan(10);
    }
  });

  it("refuses control characters and forged impossible cursors with an audited 400, never a 500", async () => {
    const forged = Buffer.from("1|2026-02-30T00:00:00.000000Z|8d0c6a7e-2f8b-4c1e-9a57-0d7c1f2b3a4e").toString("base64url");
    for (const query of ["?%00limit=5", "?patient=1000000001%00", "?status=complete%01", `?cursor=${forged}`]) {
      const before = await deps.db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.action, "claims_api.list"));
      const response = await get(query);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_request", reason: "invalid_parameter" });
      const after = await deps.db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.action, "claims_api.list"));
      expect(after.length, `${query} audited`).toBe(before.length + 1);
    }
  });

  it("refuses a key in the URL, explaining why", async () => {
    for (const name of ["api_key", "key", "access_token"]) {
      const response = await get(`?${name}=${key}`, {});
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; message: string };
      expect(body).toMatchObject({ error: "invalid_request", reason: "credentials_in_url" });
      expect(body.message).toMatch(/header/);
      expect(body.message).not.toContain(key);
    }
  });

  it("requires credentials, one kind at a time", async () => {
    const none = await get("", {});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect(await none.json()).toMatchObject({ error: "unauthenticated", reason: "unauthorized" });
    expect((await get("", { "x-api-key": "cxk_test_nope" })).status).toBe(401);
    const both = await get("", { "x-api-key": key, authorization: "Bearer cxt_x" });
    expect(both.status).toBe(400);
  });

  it("revocation takes effect on the next request", async () => {
    const made = await createApiKey(database.db, { name: "Short", environment: "sandbox", scopes: ["claims:read"] });
    expect((await get("?limit=1", { "x-api-key": made.key })).status).toBe(200);
    await revokeApiKey(database.db, { prefix: made.record.prefix });
    const response = await get("?limit=1", { "x-api-key": made.key });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthenticated", reason: "api_key_revoked" });
  });

  it("refuses a key of the other environment with key_wrong_environment", async () => {
    const prod = await createApiKey(database.db, { name: "Prod", environment: "production", scopes: ["claims:read"] });
    expect(prod.key).toMatch(/^cxk_live_/);
    const response = await get("", { "x-api-key": prod.key });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: string; message: string };
    expect(body).toMatchObject({ error: "unauthenticated", reason: "key_wrong_environment" });
    expect(body.message).toMatch(/production/);
    // The same key works on a production portal.
    expect((await get("?limit=1", { "x-api-key": prod.key }, { environment: "production" })).status).toBe(200);
  });

  it("403 insufficient_scope for a key without claims:read", async () => {
    const made = await createApiKey(database.db, { name: "Other", environment: "sandbox", scopes: ["claims:read"] });
    await database.db.update(apiKeys).set({ scopes: ["gateway:query"] }).where(eq(apiKeys.id, made.record.id));
    const response = await get("", { "x-api-key": made.key });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "forbidden", reason: "insufficient_scope" });
  });

  describe("with OAuth bearer tokens", () => {
    const issuedAt = new Date("2026-11-21T09:00:00Z");
    async function token(scopes = ["claims:read"]) {
      const c = await createOAuthClient(database.db, { name: "Partner", scopes: ["claims:read"], environment: "sandbox" });
      await database.db.update(oauthClients).set({ scopes }).where(eq(oauthClients.id, c.record.id));
      const response = await handleTokenRequest(
        new Request("https://portal.test/oauth/token", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }),
        }),
        { db: database.db, environment: "sandbox", ratePerMinute: 100, now: () => issuedAt },
      );
      return ((await response.json()) as { access_token: string }).access_token;
    }

    it("accepts a valid token and refuses it once expired (RFC 6750)", async () => {
      const t = await token();
      const ok = await get("?limit=2", { authorization: `Bearer ${t}` }, { now: () => new Date(issuedAt.getTime() + 60_000) });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as Page).data).toHaveLength(2);
      const expired = await get("?limit=2", { authorization: `Bearer ${t}` }, { now: () => new Date(issuedAt.getTime() + 3600_000) });
      expect(expired.status).toBe(401);
      expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer realm="clinic-exchange", error="invalid_token"/);
      expect(await expired.json()).toMatchObject({ error: "unauthenticated", reason: "invalid_token" });
      const unknown = await get("", { authorization: `Bearer cxt_${"A".repeat(43)}` });
      expect(unknown.status).toBe(401);
      expect(unknown.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    });

    it("403 insufficient_scope with the RFC 6750 challenge", async () => {
      const t = await token(["reports:read"]);
      const response = await get("", { authorization: `Bearer ${t}` }, { now: () => issuedAt });
      expect(response.status).toBe(403);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="clinic-exchange", error="insufficient_scope", scope="claims:read"');
      expect(await response.json()).toMatchObject({ error: "forbidden", reason: "insufficient_scope" });
    });
  });

  it("rate-limits per key with 429 and Retry-After", async () => {
    const made = await createApiKey(database.db, { name: "Busy", environment: "sandbox", scopes: ["claims:read"] });
    const now = () => new Date("2026-11-21T10:00:45Z");
    for (let i = 0; i < 3; i++) expect((await get("?limit=1", { "x-api-key": made.key }, { ratePerMinute: 3, now })).status).toBe(200);
    const refused = await get("?limit=1", { "x-api-key": made.key }, { ratePerMinute: 3, now });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("63"); // sliding window: when the 6 s slice of the three has left it (decision 070)
    expect(await refused.json()).toMatchObject({ error: "rate_limited", reason: "rate_limited" });
    // Other keys have their own budget.
    expect((await get("?limit=1", { "x-api-key": key }, { ratePerMinute: 3, now })).status).toBe(200);
  });

  it("updates last_used_at at most once a minute", async () => {
    const made = await createApiKey(database.db, { name: "Touch", environment: "sandbox", scopes: ["claims:read"] });
    const at = (s: number) => () => new Date(Date.parse("2026-11-21T11:00:00Z") + s * 1000);
    const lastUsed = async () => (await database.db.select().from(apiKeys).where(eq(apiKeys.id, made.record.id)))[0]!.lastUsedAt?.toISOString();
    await get("?limit=1", { "x-api-key": made.key }, { now: at(0) });
    expect(await lastUsed()).toBe("2026-11-21T11:00:00.000Z");
    await get("?limit=1", { "x-api-key": made.key }, { now: at(59) });
    expect(await lastUsed()).toBe("2026-11-21T11:00:00.000Z");
    await get("?limit=1", { "x-api-key": made.key }, { now: at(61) });
    expect(await lastUsed()).toBe("2026-11-21T11:01:01.000Z");
  });

  it("audits every call as the API caller, never with the patient's ID", async () => {
    const patient = (await database.query<{ patient_id: string }>(`select patient_id from submissions where kind = 'claim' limit 1`))[0]!.patient_id;
    await get(`?patient=${patient}`);
    await get(`?patient=${patient}`, {});
    const rows = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "claims_api.list"));
    expect(rows.some((r) => r.actorKind === "api" && r.actorLabel?.startsWith("api-key:BI tool (cxk_test_") && r.outcome === "success")).toBe(true);
    expect(rows.some((r) => r.actorKind === "anonymous" && r.outcome === "denied")).toBe(true);
    expect(rows.some((r) => (r.details as { patient?: boolean })?.patient === true)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(patient);
    expect(JSON.stringify(rows)).not.toContain(key);
    const keyRow = (await database.db.select().from(apiKeys).where(eq(apiKeys.hash, hashSecret(key))))[0]!;
    expect(keyRow.lastUsedAt).toBeInstanceOf(Date);
  });

  it("never answers 5xx to fuzzed query strings", async () => {
    const names = fc.oneof(fc.constantFrom(...CLAIMS_PARAMETERS, "api_key", "Key", "cursor"), fc.string({ maxLength: 12 }));
    const values = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("1", "100", "-1", "1e2", "complete,partial", "2026-11-01", "2026-11-01T00:00:00Z", "9999-12-31T23:59:59+23:59", "MXx4fHk", "%00", "0x10"),
      fc.integer().map(String),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(names, values), { maxLength: 4 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await get(`?${query}`);
        expect(response.status).toBeLessThan(500);
        const body = (await response.json()) as Record<string, unknown>;
        // Every answer parses with the zod schema the OpenAPI document is generated from.
        if (response.status === 200) expect(CLAIMS_API_SCHEMAS.ClaimPage.schema.safeParse(body).success).toBe(true);
        else {
          expect(CLAIMS_API_ERROR_CODES).toContain(body.error);
          expect(CLAIMS_API_SCHEMAS.Error.schema.safeParse(body).success).toBe(true);
        }
      }),
      { numRuns: target.name === "pglite" ? 120 : 200 },
    );
  });
});

describe("the OpenAPI document", () => {
  const doc = openApiDocument() as {
    openapi: string;
    paths: Record<string, { get?: { parameters: { name: string }[] } }>;
    components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
  };
  it("describes what the handler accepts and answers", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/v1/claims"]!.get!.parameters.map((p) => p.name).sort()).toEqual([...CLAIMS_PARAMETERS].sort());
    expect(doc.components.schemas.Claim!.properties.status!.enum).toEqual([...SUBMISSION_STATUSES]);
    expect(doc.components.schemas.Error!.properties.error!.enum!.sort()).toEqual([...CLAIMS_API_ERROR_CODES].sort());
    expect(doc.components.schemas.Error!.properties.reason!.enum!.sort()).toEqual(Object.keys(CLAIMS_API_REASONS).sort());
  });
});
