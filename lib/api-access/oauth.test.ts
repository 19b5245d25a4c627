import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditEvents, oauthClients, oauthTokens } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { handleTokenRequest } from "@/lib/api";
import { authenticateBearer, createOAuthClient, listOAuthClients, revokeOAuthClient } from "./oauth";
import { hashSecret } from "./secrets";

const URL_ = "https://portal.test/oauth/token";

function tokenRequest(form: Record<string, string> | string, headers: Record<string, string> = {}): Request {
  const body = typeof form === "string" ? form : new URLSearchParams(form).toString();
  return new Request(URL_, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

describe.each(testDatabases())("OAuth token endpoint on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let client: { clientId: string; clientSecret: string; id: string };
  let production: { clientId: string; clientSecret: string };
  const deps = () => ({ db: database.db, environment: "sandbox" as const, ratePerMinute: 1000 });

  beforeAll(async () => {
    database = await target.open();
    const made = await createOAuthClient(database.db, { name: "Reporting", scopes: ["claims:read"], environment: "sandbox" });
    client = { clientId: made.clientId, clientSecret: made.clientSecret, id: made.record.id };
    production = await createOAuthClient(database.db, { name: "Prod tool", scopes: ["claims:read"], environment: "production" });
  });
  afterAll(async () => database?.dispose());

  async function expectError(response: Response, status: number, error: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    expect(body.error_description.length).toBeGreaterThan(5);
  }

  it("issues a bearer token to a client authenticated in the body, stored only hashed", async () => {
    const response = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret }), deps());
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^cxt_/), token_type: "Bearer", expires_in: 3600, scope: "claims:read" });
    const rows = await database.db.select().from(oauthTokens).where(eq(oauthTokens.hash, hashSecret(body.access_token as string)));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(body.access_token as string);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(3600_000);
  });

  it("accepts HTTP Basic, and a requested scope it holds", async () => {
    const response = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", scope: "claims:read" }, { authorization: basic(client.clientId, client.clientSecret) }), deps());
    expect(response.status).toBe(200);
    expect(((await response.json()) as { scope: string }).scope).toBe("claims:read");
  });

  it("refuses Basic and body credentials together (invalid_request)", async () => {
    await expectError(
      await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret }, { authorization: basic(client.clientId, client.clientSecret) }), deps()),
      400,
      "invalid_request",
    );
  });

  it("answers each RFC 6749 §5.2 error", async () => {
    const good = { client_id: client.clientId, client_secret: client.clientSecret };
    await expectError(await handleTokenRequest(tokenRequest({ ...good }), deps()), 400, "invalid_request");
    await expectError(await handleTokenRequest(tokenRequest(`grant_type=client_credentials&grant_type=client_credentials&client_id=${good.client_id}&client_secret=${good.client_secret}`), deps()), 400, "invalid_request");
    await expectError(
      await handleTokenRequest(new Request(URL_, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "client_credentials", ...good }) }), deps()),
      400,
      "invalid_request",
    );
    await expectError(await handleTokenRequest(tokenRequest({ grant_type: "password", ...good }), deps()), 400, "unsupported_grant_type");
    await expectError(await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", scope: "claims:read claims:write", ...good }), deps()), 400, "invalid_scope");

    const wrongBody = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: client.clientId, client_secret: "cxs_wrong" }), deps());
    expect(wrongBody.headers.get("www-authenticate")).toBeNull();
    await expectError(wrongBody, 401, "invalid_client");
    const wrongBasic = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials" }, { authorization: basic(client.clientId, "nope") }), deps());
    expect(wrongBasic.headers.get("www-authenticate")).toBe('Basic realm="clinic-exchange"');
    await expectError(wrongBasic, 401, "invalid_client");
    await expectError(await handleTokenRequest(tokenRequest({ grant_type: "client_credentials" }), deps()), 401, "invalid_client");
    await expectError(await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: "cxc_unknown", client_secret: "x" }), deps()), 401, "invalid_client");
  });

  it("refuses a client of the other environment", async () => {
    await expectError(
      await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: production.clientId, client_secret: production.clientSecret }), deps()),
      401,
      "invalid_client",
    );
  });

  it("limits the granted scopes to what the client holds", async () => {
    const narrow = await createOAuthClient(database.db, { name: "Narrow", scopes: ["claims:read"], environment: "sandbox" });
    // A client whose allowed scopes changed (e.g. a future scope) never gets more than it holds.
    await database.db.update(oauthClients).set({ scopes: ["claims:read", "claims:export"] }).where(eq(oauthClients.id, narrow.record.id));
    const response = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", scope: "claims:read", client_id: narrow.clientId, client_secret: narrow.clientSecret }), deps());
    expect(((await response.json()) as { scope: string }).scope).toBe("claims:read");
    const all = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: narrow.clientId, client_secret: narrow.clientSecret }), deps());
    expect(((await all.json()) as { scope: string }).scope).toBe("claims:read claims:export");
  });

  it("rate-limits token requests per client", async () => {
    const limited = await createOAuthClient(database.db, { name: "Busy", scopes: ["claims:read"], environment: "sandbox" });
    const form = { grant_type: "client_credentials", client_id: limited.clientId, client_secret: limited.clientSecret };
    const now = () => new Date("2026-11-21T10:00:10Z");
    for (let i = 0; i < 2; i++) expect((await handleTokenRequest(tokenRequest(form), { ...deps(), ratePerMinute: 2, now })).status).toBe(200);
    const refused = await handleTokenRequest(tokenRequest(form), { ...deps(), ratePerMinute: 2, now });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("62"); // sliding window: when the 6 s slice of the two has left it (decision 070)
  });

  it("revoking a client ends its tokens at once; expired tokens are refused", async () => {
    const c = await createOAuthClient(database.db, { name: "Short-lived", scopes: ["claims:read"], environment: "sandbox" });
    const issuedAt = new Date("2026-11-21T10:00:00Z");
    const response = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }), { ...deps(), now: () => issuedAt });
    const { access_token } = (await response.json()) as { access_token: string };
    expect((await authenticateBearer(database.db, access_token, "sandbox", new Date(issuedAt.getTime() + 3599_000))).ok).toBe(true);
    expect(await authenticateBearer(database.db, access_token, "sandbox", new Date(issuedAt.getTime() + 3600_000))).toMatchObject({ ok: false, message: expect.stringMatching(/expired/) });
    expect((await authenticateBearer(database.db, access_token, "production", issuedAt)).ok).toBe(false);
    await revokeOAuthClient(database.db, { clientId: c.clientId });
    expect(await authenticateBearer(database.db, access_token, "sandbox", issuedAt)).toMatchObject({ ok: false, message: expect.stringMatching(/revoked/) });
    const again = await handleTokenRequest(tokenRequest({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }), deps());
    expect(again.status).toBe(401);
    expect((await listOAuthClients(database.db)).find((x) => x.clientId === c.clientId)?.revokedAt).toBeInstanceOf(Date);
  });

  it("audits token requests without secrets", async () => {
    const rows = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "oauth.token"));
    expect(rows.some((r) => r.outcome === "success" && r.actorKind === "api" && r.actorId === client.id)).toBe(true);
    expect(rows.some((r) => r.outcome === "denied" && (r.details as { reason?: string })?.reason === "invalid_client")).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(client.clientSecret);
    expect(JSON.stringify(rows)).not.toContain("cxt_");
  });
});
