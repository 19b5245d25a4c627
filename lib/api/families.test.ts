import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createGatewayToken } from "@/lib/api-access/credentials";
import { handleTokenRequest } from "./token-endpoint";
import { handleListClaims } from "@/lib/claims-api";
import { API_CLAIM_REPLAY_STATUS } from "@/lib/submissions";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { postFhir, registerOrg, newOrgKey, signToken, testApi, testConfig, type TestOrgKey } from "@/lib/provider-api/testing";
import { createGateway, parseGatewayConfig } from "@/lib/gateway";
import { testDatabases } from "@/lib/testing/databases";
import { API_ERROR_SYSTEM, ERROR_CATALOGUE, type ErrorCode } from "@/lib/errors";

/*
 * The same bad request gets the same catalogue code from every family (docs/decisions/031), and a
 * replayed Claim gets the same status from both APIs that accept Claims (docs/decisions/032).
 */

type Json = Record<string, unknown>;

/** The catalogue code an answer carries, whatever its style. */
async function codeOf(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as Json;
  if (body.resourceType === "OperationOutcome") {
    const issue = (body.issue as { details?: { coding?: { system?: string; code?: string }[] } }[])[0];
    return issue?.details?.coding?.find((c) => c.system === API_ERROR_SYSTEM)?.code;
  }
  if (typeof body.error_description === "string") {
    // RFC 6749: read the catalogue code back through the table.
    const found = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).find((c) => ERROR_CATALOGUE[c].oauth === body.error && ERROR_CATALOGUE[c].status === response.status);
    return found;
  }
  return body.error as string | undefined;
}

describe.each(testDatabases().slice(0, 1))("one error catalogue across the API families on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let orgKey: TestOrgKey;
  let gatewayToken: string;
  let apiKey: string;
  const providerOrgId = "clinic-001";
  const exchange = () => testApi(database.db, undefined, testConfig({}, providerOrgId));
  const gateway = () =>
    createGateway({
      db: async () => database.db,
      config: () => parseGatewayConfig({ PROVIDER_ORG_ID: providerOrgId, PLATFORM_ENV: "sandbox", GATEWAY_RATE_PER_MINUTE: "100000" }),
      warn: () => undefined,
    });
  const v1 = (query: string, headers: Record<string, string>) =>
    handleListClaims(new Request(`https://portal.test/v1/claims${query}`, { headers }), { db: database.db, environment: "sandbox", ratePerMinute: 100_000 });
  const oauth = (body: string, contentType: string) =>
    handleTokenRequest(new Request("https://portal.test/oauth/token", { method: "POST", headers: { "content-type": contentType }, body }), {
      db: database.db,
      environment: "sandbox",
      ratePerMinute: 100_000,
    });
  const jwt = () => signToken(orgKey, "his", { aud: testConfig({}, providerOrgId).audience });
  const gatewayPost = (path: string, body: string, headers: Record<string, string> = {}) =>
    new Request(`https://portal.test${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${gatewayToken}`, ...headers }, body });

  beforeAll(async () => {
    database = await target.open();
    orgKey = await newOrgKey();
    await registerOrg(database.db, "his", orgKey);
    gatewayToken = (await createGatewayToken(database.db, { name: "Catalogue bot" })).token;
    apiKey = (await createApiKey(database.db, { name: "Catalogue key", environment: "sandbox", scopes: ["claims:read"] })).key;
  });
  afterAll(async () => database?.dispose());

  it("a body that is not JSON is `invalid_request` (400) in every family", async () => {
    const answers = {
      exchange: await exchange().submitClaim(postFhir("/api/exchange/claims/submit", "{", await jwt())),
      gatewayQuery: await gateway().query(gatewayPost("/query", "{")),
      gatewayFhir: await gateway().fhirClaim(gatewayPost("/fhir/Claim", "{")),
      oauth: await oauth("{", "application/json"),
      v1: await v1("?limit=abc", { "x-api-key": apiKey }),
    };
    for (const [family, response] of Object.entries(answers)) {
      expect(response.status, family).toBe(400);
      expect(await codeOf(response), family).toBe("invalid_request");
    }
  });

  it("no credentials is `unauthenticated` (401) in every family", async () => {
    const answers = {
      exchange: await exchange().submitClaim(postFhir("/api/exchange/claims/submit", "{}")),
      gatewayQuery: await gateway().query(gatewayPost("/query", "{}", { authorization: "" })),
      gatewayFhir: await gateway().fhirClaim(gatewayPost("/fhir/Claim", "{}", { authorization: "" })),
      oauth: await oauth("grant_type=client_credentials", "application/x-www-form-urlencoded"),
      v1: await v1("", {}),
    };
    for (const [family, response] of Object.entries(answers)) {
      expect(response.status, family).toBe(401);
      expect(await codeOf(response), family).toBe("unauthenticated");
    }
  });

  it("a Claim for an invalid national ID is refused by both Claim APIs alike (422 `unprocessable`)", async () => {
    const claim = { ...buildClaim({ use: "claim", patientId: "1234567890", items: [{ code: "99213", price: 10 }] }), identifier: [{ system: "https://his.example/claims", value: randomUUID() }] };
    const answers = {
      exchange: await exchange().submitClaim(postFhir("/api/exchange/claims/submit", claim, await jwt())),
      gatewayFhir: await gateway().fhirClaim(gatewayPost("/fhir/Claim", JSON.stringify(claim))),
      gatewayQuery: await gateway().query(gatewayPost("/query", JSON.stringify({ agent: "claim", task: "submit", data: { claim } }))),
    };
    for (const [family, response] of Object.entries(answers)) {
      expect(response.status, family).toBe(422);
      expect(await codeOf(response), family).toBe("unprocessable");
    }
  });

  it(`a replayed Claim gets ${API_CLAIM_REPLAY_STATUS} with X-Idempotent-Replay from both APIs, naming the first submission`, async () => {
    const claim = () => ({ ...buildClaim({ use: "claim", items: [{ code: "99213", price: 80 }] }), identifier: [{ system: "https://his.example/claims", value: `HIS-${randomUUID()}` }] });
    const viaExchange = claim();
    const e1 = await exchange().submitClaim(postFhir("/api/exchange/claims/submit", viaExchange, await jwt()));
    const e2 = await exchange().submitClaim(postFhir("/api/exchange/claims/submit", viaExchange, await jwt()));
    const viaFhir = claim();
    const g1 = await gateway().fhirClaim(gatewayPost("/fhir/Claim", JSON.stringify(viaFhir)));
    const g2 = await gateway().fhirClaim(gatewayPost("/fhir/Claim", JSON.stringify(viaFhir)));
    const viaQuery = claim();
    const q1 = await gateway().query(gatewayPost("/query", JSON.stringify({ agent: "claim", task: "submit", data: { claim: viaQuery } })));
    const q2 = await gateway().query(gatewayPost("/query", JSON.stringify({ agent: "claim", task: "submit", data: { claim: viaQuery } })));
    expect([e1.status, g1.status, q1.status]).toEqual([202, 202, 202]);
    expect([e2.status, g2.status, q2.status]).toEqual([API_CLAIM_REPLAY_STATUS, API_CLAIM_REPLAY_STATUS, API_CLAIM_REPLAY_STATUS]);
    expect([e2.headers.get("x-idempotent-replay"), g2.headers.get("x-idempotent-replay")]).toEqual(["true", "true"]);
    const submissionId = async (r: Response) => ((await r.json()) as { identifier: { value: string }[] }).identifier[0]!.value;
    expect(await submissionId(e2)).toBe(await submissionId(e1));
    expect(await submissionId(g2)).toBe(await submissionId(g1));
    const [a, b] = [(await q1.json()) as { result: Json }, (await q2.json()) as { result: Json }];
    expect(b.result).toMatchObject({ submissionId: a.result.submissionId, replay: true });
  });
});
