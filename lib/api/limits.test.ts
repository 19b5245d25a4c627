import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayToken } from "@/lib/api-access/credentials";
import { CLAIM_LIMITS } from "@/lib/fhir";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { postFhir, registerOrg, newOrgKey, signToken, testApi, testConfig, type TestOrgKey } from "@/lib/provider-api/testing";
import { createGateway, parseGatewayConfig } from "@/lib/gateway";
import { testDatabases } from "@/lib/testing/databases";
import { AppError } from "@/lib/errors";
import { anonymous, runApi, type ApiFamily } from "./index";
import { CALLER_CONCURRENCY } from "./kernel";

/*
 * The size limits (docs/decisions/093) in every API family that takes a claim, each in its own
 * error shape, refused before any work (nothing stored); and the per-caller fairness guard.
 */

type Json = Record<string, unknown>;

function claimOf(lines: number, extra: Json = {}) {
  return {
    ...buildClaim({ use: "claim", items: Array.from({ length: lines }, (_, i) => ({ code: "99213", price: 10 + (i % 5) })) }),
    identifier: [{ system: "https://his.example/claims", value: randomUUID() }],
    ...extra,
  };
}

/** The FHIR OperationOutcome's first issue, or the JSON error body. */
async function read(response: Response): Promise<{ status: number; text: string; body: Json }> {
  const body = (await response.json()) as Json;
  const text =
    body.resourceType === "OperationOutcome"
      ? ((body.issue as { diagnostics?: string; details?: { text?: string } }[]).map((i) => `${i.details?.text ?? ""} ${i.diagnostics ?? ""}`).join(" "))
      : `${String(body.reason)} ${String(body.message)} ${JSON.stringify(body.issues ?? [])}`;
  return { status: response.status, text, body };
}

describe.each(testDatabases().slice(0, 1))("claim size limits in every API family on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let orgKey: TestOrgKey;
  let gatewayToken: string;
  const providerOrgId = "clinic-001";
  const exchange = () => testApi(database.db, undefined, testConfig({}, providerOrgId));
  const gateway = () =>
    createGateway({
      db: async () => database.db,
      config: () => parseGatewayConfig({ PROVIDER_ORG_ID: providerOrgId, PLATFORM_ENV: "sandbox", GATEWAY_RATE_PER_MINUTE: "100000" }),
      warn: () => undefined,
    });
  const jwt = () => signToken(orgKey, "his", { aud: testConfig({}, providerOrgId).audience });
  const gatewayPost = (path: string, body: string) =>
    new Request(`https://portal.test${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${gatewayToken}` }, body });
  const stored = async () => Number(((await database.query<{ n: number }>("select count(*)::int as n from submissions")) as { n: number }[])[0]!.n);

  /** The same over-limit claim sent to the three endpoints that take claims. */
  async function everyFamily(claim: Json) {
    return {
      exchange: await read(await exchange().submitClaim(postFhir("/api/exchange/claims/submit", claim, await jwt()))),
      gatewayFhir: await read(await gateway().fhirClaim(gatewayPost("/fhir/Claim", JSON.stringify(claim)))),
      gatewayQuery: await read(await gateway().query(gatewayPost("/query", JSON.stringify({ agent: "claim", task: "submit", data: { claim } })))),
    };
  }

  beforeAll(async () => {
    database = await target.open();
    orgKey = await newOrgKey();
    await registerOrg(database.db, "his", orgKey);
    gatewayToken = (await createGatewayToken(database.db, { name: "Limits bot" })).token;
  });
  afterAll(async () => database?.dispose());

  it(`a claim with ${CLAIM_LIMITS.lines + 1} lines is 422 naming the limit, in each family's shape, and nothing is stored`, async () => {
    const before = await stored();
    const answers = await everyFamily(claimOf(CLAIM_LIMITS.lines + 1));
    for (const [family, a] of Object.entries(answers)) {
      expect(a.status, family).toBe(422);
      expect(a.text, family).toContain(`at most ${CLAIM_LIMITS.lines} lines`);
      expect(a.text, family).toContain("limit_exceeded");
    }
    // FHIR families answer an OperationOutcome with the element; /query its JSON error with the limit.
    expect(answers.exchange.body.resourceType).toBe("OperationOutcome");
    expect(answers.gatewayFhir.body.resourceType).toBe("OperationOutcome");
    expect((answers.exchange.body.issue as { expression?: string[] }[])[0]!.expression).toEqual(["item"]);
    expect(answers.gatewayQuery.body).toMatchObject({ error: "unprocessable", reason: "limit_exceeded", limit: "lines", max: CLAIM_LIMITS.lines, actual: CLAIM_LIMITS.lines + 1 });
    expect(answers.gatewayQuery.body.issues).toEqual([expect.objectContaining({ path: "data.claim.item" })]);
    expect(await stored()).toBe(before);
  });

  it("the 20,000-line claim of the report is refused the same way", async () => {
    const answers = await everyFamily(claimOf(20_000));
    for (const [family, a] of Object.entries(answers)) {
      expect(a.status, family).toBe(422);
      expect(a.text, family).toContain("20000 lines");
    }
  });

  it("too many diagnoses, supporting information entries or attachments are 422 naming each limit", async () => {
    const diagnoses = await everyFamily(claimOf(1, { diagnosis: Array.from({ length: CLAIM_LIMITS.diagnoses + 1 }, (_, i) => ({ sequence: i + 1, diagnosisCodeableConcept: { coding: [{ code: "J06.9" }] } })) }));
    const info = await everyFamily(claimOf(1, { supportingInfo: Array.from({ length: CLAIM_LIMITS.supportingInfo + 1 }, (_, i) => ({ sequence: i + 1, category: { coding: [{ code: "info" }] }, valueString: "x" })) }));
    const attachments = await everyFamily(
      claimOf(1, { supportingInfo: Array.from({ length: CLAIM_LIMITS.attachments + 1 }, (_, i) => ({ sequence: i + 1, category: { coding: [{ code: "attachment" }] }, valueAttachment: { contentType: "application/pdf", data: "JVBERi0=" } })) }),
    );
    for (const [name, answers, words] of [
      ["diagnoses", diagnoses, `at most ${CLAIM_LIMITS.diagnoses} diagnoses`],
      ["supportingInfo", info, `at most ${CLAIM_LIMITS.supportingInfo} supporting information entries`],
      ["attachments", attachments, `at most ${CLAIM_LIMITS.attachments} attachments`],
    ] as const) {
      for (const [family, a] of Object.entries(answers)) {
        expect(a.status, `${name} ${family}`).toBe(422);
        expect(a.text, `${name} ${family}`).toContain(words);
      }
    }
  });

  it(`a body nested more than ${CLAIM_LIMITS.jsonDepth} levels is 413 too_deep in each family`, async () => {
    let deep: Json = {};
    for (let i = 0; i < CLAIM_LIMITS.jsonDepth + 5; i++) deep = { a: deep };
    const claim = claimOf(1, { extension: [deep] });
    const answers = await everyFamily(claim);
    for (const [family, a] of Object.entries(answers)) {
      expect(a.status, family).toBe(413);
      expect(a.text, family).toContain(`more than ${CLAIM_LIMITS.jsonDepth} levels`);
    }
    // A hostile depth (100,000 levels) is the same 413, not a stack overflow (500).
    const hostile = await exchange().submitClaim(postFhir("/api/exchange/claims/submit", `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`, await jwt()));
    expect([400, 413]).toContain(hostile.status);
  });

  it("a claim at every limit is accepted (202)", async () => {
    const claim = claimOf(CLAIM_LIMITS.lines, { diagnosis: Array.from({ length: CLAIM_LIMITS.diagnoses }, (_, i) => ({ sequence: i + 1, diagnosisCodeableConcept: { coding: [{ system: "http://hl7.org/fhir/sid/icd-10-am", code: "J06.9" }] } })) });
    const answer = await exchange().submitClaim(postFhir("/api/exchange/claims/submit", claim, await jwt()));
    expect(answer.status, JSON.stringify(await answer.clone().json()).slice(0, 400)).toBe(202);
  }, 60_000);
});

describe.each(testDatabases().slice(0, 1))("the fairness guard: calls with a body per caller (docs/decisions/093) on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());
  const family = (label: string): ApiFamily<undefined> => ({
    name: "guard-test",
    style: "json",
    db: async () => database.db,
    guarded: (action) => action.startsWith("test."),
    authenticate: async () => ({ ok: true, value: { principal: undefined, actor: { kind: "api", id: label, name: label } } }),
  });
  const post = () => new Request("https://portal.test/x", { method: "POST", body: "{}" });

  it(`lets ${CALLER_CONCURRENCY} calls of one caller run at once, answers the next 429 with Retry-After, and frees the slot when one ends`, async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const slow = () => runApi(family("org-a"), "test.slow", post(), async () => (await gate, new Response("ok")));
    const running = Array.from({ length: CALLER_CONCURRENCY }, slow);
    await new Promise((r) => setTimeout(r, 20));
    const refused = await runApi(family("org-a"), "test.slow", post(), async () => new Response("ok"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ error: "rate_limited", reason: "concurrency", concurrency: CALLER_CONCURRENCY });
    // Another caller is not held back by org-a, nor is a GET of org-a.
    expect((await runApi(family("org-b"), "test.slow", post(), async () => new Response("ok"))).status).toBe(200);
    expect((await runApi(family("org-a"), "test.get", new Request("https://portal.test/x"), async () => new Response("ok"))).status).toBe(200);
    // Nor an action its family does not guard (an eligibility check).
    expect((await runApi(family("org-a"), "light.check", post(), async () => new Response("ok"))).status).toBe(200);
    open();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual(Array(CALLER_CONCURRENCY).fill(200));
    expect((await runApi(family("org-a"), "test.slow", post(), async () => new Response("ok"))).status).toBe(200);
  });

  it("frees the slot when the work fails", async () => {
    for (let i = 0; i < CALLER_CONCURRENCY + 2; i++) {
      const r = await runApi(family("org-c"), "test.fail", post(), async () => {
        throw new AppError("unprocessable", "no");
      });
      expect(r.status).toBe(422);
    }
    expect((await runApi(family("org-c"), "test.ok", post(), async () => new Response("ok"))).status).toBe(200);
  });

  it("anonymous calls are not guarded here (their rate bucket counts them)", async () => {
    const anon: ApiFamily<undefined> = { ...family("x"), authenticate: anonymous("t") };
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const running = Array.from({ length: CALLER_CONCURRENCY + 1 }, () => runApi(anon, "t", post(), async () => (await gate, new Response("ok"))));
    open();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual(Array(CALLER_CONCURRENCY + 1).fill(200));
  });
});
