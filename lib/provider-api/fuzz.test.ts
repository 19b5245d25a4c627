import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClaim, startTestSandbox, testClient, type SandboxHandle } from "@/lib/pipeline/testing/harness";
import type { PlatformClient } from "@/lib/platform";
import { eligibilityRequest } from "@/lib/platform/testing";
import { testDatabases } from "@/lib/testing/databases";
import { getFhir, newOrgKey, postFhir, registerOrg, signToken, testApi, testConfig, type TestOrgKey } from "./testing";
import type { ProviderApi } from "./index";

/**
 * Property-based: whatever arrives — random JSON, valid resources with random mutations, random
 * text, random headers, random ids — the API answers without a 5xx (and always with a FHIR body).
 */

type Json = Record<string, unknown>;

/** Sets (or deletes, for `undefined`) the value at a path of a deep copy. */
function mutate(base: Json, path: (string | number)[], value: unknown): Json {
  const copy = structuredClone(base) as Json;
  let node: unknown = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const next = (node as Record<string | number, unknown>)[path[i]!];
    if (typeof next !== "object" || next === null) return copy;
    node = next;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete (node as Record<string | number, unknown>)[last];
  else (node as Record<string | number, unknown>)[last] = value;
  return copy;
}

/** Every path of a JSON value (objects and arrays), for mutations. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])]);
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
  return [];
}

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(null, 0, -1, 1e308, 1.5, "", "Patient/1000000001", "Organization/payer-rimal", "2026-13-45", [], {}, true),
);

describe.each(testDatabases())("exchange API never answers 5xx to bad input on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let api: ProviderApi;
  let key: TestOrgKey;
  const runs = { numRuns: Number(process.env.FUZZ_RUNS ?? 40) };

  beforeAll(async () => {
    database = await target.open();
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    api = testApi(database.db, client, testConfig({ ratePerMinute: 100_000 }, sb.config.providerOrgId));
    key = await newOrgKey("ES256");
    await registerOrg(database.db, "fuzz", key);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  async function expectNo5xx(response: Response) {
    expect(response.status, `status ${response.status}`).toBeLessThan(500);
    expect(response.headers.get("content-type") ?? "").toMatch(/^application\/fhir\+json/);
    const body = (await response.json()) as Json;
    expect(typeof body.resourceType).toBe("string");
  }

  const validEligibility = () => eligibilityRequest("1000000001", "payer-rimal", sb.config.providerOrgId) as unknown as Json;
  const validClaim = () => ({
    ...buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }),
    identifier: [{ system: "https://his.example/claims", value: randomUUID() }],
  });

  it("random JSON bodies", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), async (body, claim) => {
        const token = await signToken(key, "fuzz");
        const res = claim
          ? await api.submitClaim(postFhir("/api/exchange/claims/submit", body, token))
          : await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", body, token));
        await expectNo5xx(res);
      }),
      runs,
    );
  });

  it("valid resources with random mutations", async () => {
    const eligibilityPaths = paths(validEligibility());
    const claimPaths = paths(validClaim());
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.option(jsonish, { nil: undefined })), { minLength: 1, maxLength: 3 }),
        async (claim, edits) => {
          let body: Json = claim ? validClaim() : validEligibility();
          const all = claim ? claimPaths : eligibilityPaths;
          for (const [index, value] of edits) body = mutate(body, all[index % all.length]!, value);
          const token = await signToken(key, "fuzz");
          const res = claim
            ? await api.submitClaim(postFhir("/api/exchange/claims/submit", body, token))
            : await api.eligibilityCheck(postFhir("/api/exchange/eligibility/check", body, token));
          await expectNo5xx(res);
        },
      ),
      runs,
    );
  });

  it("random text bodies and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.constantFrom("application/fhir+json", "application/json", "text/plain", "", "application/fhir+json; charset=latin1", "multipart/form-data"),
        async (text, type) => {
          const res = await api.submitClaim(postFhir("/api/exchange/claims/submit", text, await signToken(key, "fuzz"), { "content-type": type }));
          await expectNo5xx(res);
        },
      ),
      runs,
    );
  });

  it("random Authorization headers and unsigned tokens", async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ maxLength: 300 }).map((s) => `Bearer ${s}`),
          fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 40 })).map(([h, p, s]) => `Bearer ${b64(h)}.${b64(p)}.${s}`),
          fc.tuple(fc.string({ unit: "binary", maxLength: 30 }), fc.jsonValue({ maxDepth: 1 })).map(
            ([iss, jti]) => `Bearer ${b64({ alg: "ES256", kid: "x" })}.${b64({ iss, sub: iss, aud: testConfig().audience, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60, jti })}.AAAA`,
          ),
          fc.tuple(fc.constantFrom("RS256", "ES256", "HS256", "none", "PS256", "EdDSA"), fc.option(fc.string({ maxLength: 10 }))).map(
            ([alg, kid]) => `Bearer ${b64({ alg, ...(kid === null ? {} : { kid }) })}.${b64({ iss: "fuzz", sub: "fuzz", aud: testConfig().audience, iat: 1, exp: 2, jti: "x" })}.AAAA`,
          ),
        ),
        fc.string({ maxLength: 60 }),
        async (authorization, requestId) => {
          let headers: Record<string, string>;
          try {
            headers = { authorization, "x-request-id": requestId };
            new Headers(headers);
          } catch {
            return; // not a header value HTTP can carry
          }
          const res = await api.claimStatus(getFhir(`/api/exchange/claims/${randomUUID()}/status`, undefined, headers), randomUUID());
          expect(res.status).toBe(401);
          await expectNo5xx(res);
        },
      ),
      runs,
    );
  });

  it("random ids for coverage and status", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: "binary", maxLength: 80 }), fc.uuid()), fc.boolean(), async (id, coverage) => {
        const token = await signToken(key, "fuzz");
        const res = coverage ? await api.coverage(getFhir("/api/exchange/coverage/x", token), id) : await api.claimStatus(getFhir("/api/exchange/claims/x/status", token), id);
        expect(res.status).toBe(404);
        await expectNo5xx(res);
      }),
      runs,
    );
  });
});
