import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { SignJWT, exportSPKI } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeOrgKey, setOrgClientDisabled } from "@/lib/api-access/org-keys";
import { auditEvents } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { getFhir, json, newOrgKey, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe.each(testDatabases())("exchange API authentication on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let es: TestOrgKey;
  let rs: TestOrgKey;
  let stranger: TestOrgKey;
  const org = "his-main";

  beforeAll(async () => {
    database = await target.open();
    [es, rs, stranger] = await Promise.all([newOrgKey("ES256"), newOrgKey("RS256"), newOrgKey("ES256")]);
    await registerOrg(database.db, org, es);
    await registerOrg(database.db, org, rs);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const api = () => testApi(database.db, undefined);
  /** An authenticated call answers 404 (no such submission); a refused one 401. */
  const call = (token?: string, headers: Record<string, string> = {}) =>
    api().claimStatus(getFhir(`/api/exchange/claims/${randomUUID()}/status`, token, headers), randomUUID());

  async function expectRefused(token: string | undefined, reason: string, headers: Record<string, string> = {}) {
    const res = await call(token, headers);
    expect(res.status).toBe(401);
    const www = res.headers.get("www-authenticate") ?? "";
    expect(www).toMatch(/^Bearer /);
    expect(www).toContain('error="invalid_token"');
    expect(www).toContain(`error_description="${reason}"`);
    expect(res.headers.get("content-type")).toMatch(/application\/fhir\+json/);
    const body = await json(res);
    expect(body.resourceType).toBe("OperationOutcome");
    return body;
  }

  it("accepts ES256 and RS256 tokens signed by registered keys (with or without kid)", async () => {
    expect((await call(await signToken(es, org))).status).toBe(404);
    expect((await call(await signToken(rs, org))).status).toBe(404);
    expect((await call(await signToken(es, org, { kid: null }))).status).toBe(404);
    expect((await call(await signToken(rs, org, { kid: null }))).status).toBe(404);
  });

  it("refuses a request without a token, or with another scheme", async () => {
    await expectRefused(undefined, "missing_token");
    await expectRefused(undefined, "missing_token", { authorization: "Basic dXNlcjpwYXNz" });
    await expectRefused(undefined, "malformed_token", { authorization: "Bearer not-a-jwt" });
  });

  it("refuses a token signed with a key that is not registered", async () => {
    await expectRefused(await signToken(stranger, org, { kid: es.kid }), "invalid_token");
    await expectRefused(await signToken(stranger, org, { kid: null }), "invalid_token");
    await expectRefused(await signToken(stranger, org), "invalid_token");
  });

  it("refuses alg none", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64({ alg: "none", typ: "JWT" })}.${b64({ iss: org, sub: org, aud: testConfig().audience, iat: now, exp: now + 60, jti: randomUUID() })}.`;
    await expectRefused(token, "unsupported_alg");
  });

  it("refuses HS256 signed with the public key as the secret", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const secretText of [await exportSPKI(es.publicKey), JSON.stringify(es.publicJwk)]) {
      const token = await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: "HS256", kid: es.kid })
        .setIssuer(org)
        .setSubject(org)
        .setAudience(testConfig().audience)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(new TextEncoder().encode(secretText));
      await expectRefused(token, "unsupported_alg");
    }
  });

  it("refuses an expired token, one living longer than 5 minutes and one issued in the future", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await signToken(es, org, { iat: now - 400, exp: now - 100 }), "expired");
    await expectRefused(await signToken(es, org, { iat: now, exp: now + 301 }), "invalid_token");
    expect((await call(await signToken(es, org, { iat: now, exp: now + 300 }))).status).toBe(404);
    await expectRefused(await signToken(es, org, { iat: now + 600, exp: now + 700 }), "invalid_token");
  });

  it("refuses the wrong audience, iss ≠ sub and a missing jti", async () => {
    await expectRefused(await signToken(es, org, { aud: "https://elsewhere.example/api/exchange" }), "invalid_token");
    await expectRefused(await signToken(es, org, { sub: "someone-else" }), "invalid_token");
    await expectRefused(await signToken(es, org, { jti: null }), "invalid_token");
  });

  it("refuses a replayed jti", async () => {
    const token = await signToken(es, org);
    expect((await call(token)).status).toBe(404);
    await expectRefused(token, "replayed");
    // The same jti from another client is that client's own business.
    const other = await newOrgKey("ES256");
    await registerOrg(database.db, "lab-1", other);
    const jti = randomUUID();
    expect((await call(await signToken(es, org, { jti }))).status).toBe(404);
    expect((await call(await signToken(other, "lab-1", { jti }))).status).toBe(404);
  });

  it("accepts a token once even when it arrives twice at the same moment", async () => {
    const token = await signToken(es, org);
    const statuses = (await Promise.all([call(token), call(token), call(token)])).map((r) => r.status).sort();
    expect(statuses).toEqual([401, 401, 404]);
  });

  it("refuses an unknown organization", async () => {
    await expectRefused(await signToken(es, "nobody"), "invalid_token");
  });

  it("refuses a revoked key but keeps the organization's other keys working", async () => {
    const key = await newOrgKey("ES256");
    await registerOrg(database.db, org, key);
    expect((await call(await signToken(key, org))).status).toBe(404);
    await revokeOrgKey(database.db, { clientId: org, kid: key.kid });
    await expectRefused(await signToken(key, org), "invalid_token");
    await expectRefused(await signToken(key, org, { kid: null }), "invalid_token");
    expect((await call(await signToken(es, org))).status).toBe(404);
  });

  it("refuses a disabled organization client, and accepts it again once enabled", async () => {
    const key = await newOrgKey("ES256");
    await registerOrg(database.db, "pharmacy", key);
    await setOrgClientDisabled(database.db, "pharmacy", true);
    await expectRefused(await signToken(key, "pharmacy"), "invalid_token");
    await setOrgClientDisabled(database.db, "pharmacy", false);
    expect((await call(await signToken(key, "pharmacy"))).status).toBe(404);
  });

  it("audits refusals with the internal reason, never telling the caller", async () => {
    const requestId = randomUUID();
    await expectRefused(await signToken(es, org, { aud: "https://x.example" }), "invalid_token", { "x-request-id": requestId });
    const [row] = await database.db.select().from(auditEvents).where(and(eq(auditEvents.requestId, requestId), eq(auditEvents.action, "exchange.claim.status")));
    expect(row?.outcome).toBe("denied");
    expect(row?.actorKind).toBe("api");
    expect(row?.actorId).toBe(org);
    expect(row?.details).toMatchObject({ status: 401, reason: "wrong_audience" });
  });

  it("limits each organization to its rate and answers 429 with Retry-After", async () => {
    const [key, otherKey] = await Promise.all([newOrgKey("ES256"), newOrgKey("ES256")]);
    await registerOrg(database.db, "busy-org", key);
    await registerOrg(database.db, "quiet-org", otherKey);
    // A fixed clock 10 s into a minute: all calls fall in one window, 50 s before it ends.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const limited = testApi(database.db, undefined, testConfig({ ratePerMinute: 3 }), () => new Date(minute + 10_000));
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await limited.claimStatus(getFhir(`/api/exchange/claims/x/status`, await signToken(key, "busy-org", { iat: Math.floor(minute / 1000) + 5 })), "x");
      statuses.push(last.status);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expect(last!.headers.get("retry-after")).toBe("62"); // sliding window: when the 6 s slice of the three has left it (decision 070)
    expect(last!.headers.get("ratelimit-limit")).toBe("3");
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect((await json(last!)).resourceType).toBe("OperationOutcome");
    // Another organization is not affected.
    const other = await limited.claimStatus(getFhir(`/api/exchange/claims/x/status`, await signToken(otherKey, "quiet-org", { iat: Math.floor(minute / 1000) + 5 })), "x");
    expect(other.status).toBe(404);
  });
});
