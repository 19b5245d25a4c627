import fs from "node:fs";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "./clock";
import { createCertificateAuthority, issueCertificate, certificateThumbprint, pkiPaths, renewClientCertificate } from "./pki";
import { agentFor, eligibilityRequest, startTestSandbox, type TestSandbox } from "./test-support";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("transport: mutual TLS", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox();
  });
  afterAll(async () => {
    await t.stop();
  });

  it("creates the PKI files with private keys readable only by the owner", () => {
    const p = pkiPaths(t.dataDir);
    for (const file of [p.ca, p.caKey, p.server, p.serverKey, p.client, p.clientKey]) expect(fs.existsSync(file)).toBe(true);
    for (const key of [p.caKey, p.serverKey, p.clientKey]) expect(fs.statSync(key).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${t.dataDir}/secrets.json`).mode & 0o777).toBe(0o600);
  });

  it("refuses the handshake without a client certificate", async () => {
    const agent = agentFor({ ca: t.ca });
    await expect(request(`${t.sandbox.url}/oauth/token`, { method: "POST", dispatcher: agent, headers: FORM, body: "grant_type=client_credentials" })).rejects.toThrow();
    await agent.close();
  });

  it("refuses the handshake with a certificate from a foreign CA", async () => {
    const foreignCa = await createCertificateAuthority("Foreign CA");
    const foreign = await issueCertificate(foreignCa, { commonName: "intruder", usage: "client" });
    const agent = agentFor({ ca: t.ca, cert: foreign.certPem, key: foreign.keyPem });
    await expect(request(`${t.sandbox.url}/oauth/token`, { method: "POST", dispatcher: agent, headers: FORM, body: "grant_type=client_credentials" })).rejects.toThrow();
    await agent.close();
  });

  it("accepts the sandbox-issued client certificate", async () => {
    const res = await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal") });
    expect(res.status).toBe(200);
  });
});

describe("OAuth token endpoint", () => {
  let t: TestSandbox;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    t = await startTestSandbox({ clock });
  });
  afterAll(async () => {
    await t.stop();
  });

  const post = (body: string, headers: Record<string, string> = FORM, agent = t.agent) =>
    request(`${t.sandbox.url}/oauth/token`, { method: "POST", dispatcher: agent, headers, body }).then(async (r) => ({
      status: r.statusCode,
      headers: r.headers,
      json: (await r.body.json()) as Record<string, unknown>,
    }));

  it("issues a certificate-bound bearer token for client_credentials (secret in the body)", async () => {
    const c = t.sandbox.credentials;
    const res = await post(form({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret }));
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const [, payload] = String(res.json.access_token).split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as { cnf: Record<string, string>; exp: number; iat: number };
    expect(claims.cnf["x5t#S256"]).toBe(certificateThumbprint(t.cert));
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it("accepts HTTP Basic client authentication", async () => {
    const c = t.sandbox.credentials;
    const basic = Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString("base64");
    const res = await post(form({ grant_type: "client_credentials" }), { ...FORM, authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
  });

  it("answers RFC 6749 errors", async () => {
    const c = t.sandbox.credentials;
    const wrongSecret = await post(form({ grant_type: "client_credentials", client_id: c.clientId, client_secret: "nope" }));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.json.error).toBe("invalid_client");

    const basic = Buffer.from(`${c.clientId}:wrong`).toString("base64");
    const wrongBasic = await post(form({ grant_type: "client_credentials" }), { ...FORM, authorization: `Basic ${basic}` });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.headers["www-authenticate"]).toMatch(/^Basic/);

    const noAuth = await post(form({ grant_type: "client_credentials" }));
    expect(noAuth.json.error).toBe("invalid_client");

    const badGrant = await post(form({ grant_type: "password", client_id: c.clientId, client_secret: c.clientSecret }));
    expect(badGrant.status).toBe(400);
    expect(badGrant.json.error).toBe("unsupported_grant_type");

    const noGrant = await post(form({ client_id: c.clientId, client_secret: c.clientSecret }));
    expect(noGrant.json.error).toBe("invalid_request");

    const json = await post(JSON.stringify({ grant_type: "client_credentials" }), { "content-type": "application/json" });
    expect(json.status).toBe(400);
    expect(json.json.error).toBe("invalid_request");

    const badScope = await post(form({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret, scope: "admin" }));
    expect(badScope.json.error).toBe("invalid_scope");
  });

  it("refuses an expired token with 401", async () => {
    const token = await t.token();
    clock.advance(3601_000);
    const res = await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal"), token });
    expect(res.status).toBe(401);
    expect(res.body.resourceType).toBe("OperationOutcome");
    expect(res.headers["www-authenticate"]).toMatch(/invalid_token/);
    clock.advance(-3601_000);
  });

  it("refuses a forged or malformed token", async () => {
    const token = await t.token();
    const [h, p] = token.split(".");
    const forged = `${h}.${p}.${"A".repeat(86)}`;
    expect((await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal"), token: forged })).status).toBe(401);
    const res = await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal"), headers: { authorization: "Token abc" }, token: null });
    expect(res.status).toBe(401);
  });
});

describe("certificate binding and renewal", () => {
  it("refuses a token over another certificate, and old-certificate tokens after renewal", async () => {
    const t = await startTestSandbox();
    try {
      const caKey = fs.readFileSync(pkiPaths(t.dataDir).caKey, "utf8");
      // Certificate B: issued by the sandbox CA (handshake passes) but not registered for the client.
      const other = await issueCertificate({ certPem: t.ca, keyPem: caKey }, { commonName: "other-client", usage: "client" });
      const agentB = agentFor({ ca: t.ca, cert: other.certPem, key: other.keyPem });
      const tokenA = await t.token();
      const body = eligibilityRequest("1000000001", "payer-rimal");

      expect((await t.call("POST", "/CoverageEligibilityRequest", { body, token: tokenA })).status).toBe(200);
      const overB = await t.call("POST", "/CoverageEligibilityRequest", { body, token: tokenA, agent: agentB });
      expect(overB.status).toBe(401);
      expect(String(overB.body.issue && JSON.stringify(overB.body.issue))).toMatch(/different client certificate/);
      await expect(t.token(agentB)).rejects.toThrow(/401/);

      // Renewal: the new certificate gets tokens that work; the old certificate's tokens stop working.
      const renewed = await renewClientCertificate(t.dataDir);
      expect(renewed.previousThumbprint).toBe(certificateThumbprint(t.cert));
      const agentNew = agentFor({ ca: t.ca, cert: fs.readFileSync(renewed.cert, "utf8"), key: fs.readFileSync(renewed.key, "utf8") });
      const oldOverOld = await t.call("POST", "/CoverageEligibilityRequest", { body, token: tokenA });
      expect(oldOverOld.status).toBe(401);
      expect(JSON.stringify(oldOverOld.body)).toMatch(/renewed/);
      expect((await t.call("POST", "/CoverageEligibilityRequest", { body, token: tokenA, agent: agentNew })).status).toBe(401);
      await expect(t.token()).rejects.toThrow(/401/);
      const tokenNew = await t.token(agentNew);
      expect((await t.call("POST", "/CoverageEligibilityRequest", { body, token: tokenNew, agent: agentNew })).status).toBe(200);
      await agentB.close();
      await agentNew.close();
    } finally {
      await t.stop();
    }
  });
});
