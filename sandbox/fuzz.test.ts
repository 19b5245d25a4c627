import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_LIMITS, OperationOutcomeSchema } from "../lib/fhir";
import { claimBody, eligibilityRequest, startTestSandbox, type TestSandbox } from "./test-support";

/**
 * Robustness: whatever arrives — random JSON, or a valid request with members removed or replaced
 * by random values — the sandbox answers a 2xx or a 4xx OperationOutcome, never a 5xx or a crash.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ limits: { eligibility: 100_000, claims: 100_000, status: 100_000 }, adjudicationDelayMs: 10 });
});
afterAll(async () => {
  await t.stop();
});

function mutate(base: Record<string, unknown>, path: (string | number)[], replacement: unknown, remove: boolean): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  let node: unknown = copy;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof node !== "object" || node === null) return copy;
    node = (node as Record<string | number, unknown>)[path[i]!];
  }
  if (typeof node !== "object" || node === null) return copy;
  const last = path[path.length - 1]!;
  if (remove) delete (node as Record<string | number, unknown>)[last];
  else (node as Record<string | number, unknown>)[last] = replacement;
  return copy;
}

function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, k]))].filter((p) => p.length > 0);
}

async function expectNoServerError(route: string, body: unknown) {
  const res = await t.call("POST", route, { rawBody: JSON.stringify(body), headers: { "content-type": "application/fhir+json" } });
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBeLessThan(500);
  if (res.status >= 400) OperationOutcomeSchema.parse(res.body);
}

describe("robustness", () => {
  it("random JSON bodies never cause a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom("/Claim", "/CoverageEligibilityRequest"), async (body, route) => {
        await expectNoServerError(route, body);
      }),
      { numRuns: 150 },
    );
  });

  it("valid requests with a member removed or replaced never cause a 5xx", async () => {
    const claim = claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] });
    const eligibility = eligibilityRequest("1000000001", "payer-rimal", ["3"]);
    const claimPaths = paths(claim);
    const eligibilityPaths = paths(eligibility);
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.nat(),
        fc.jsonValue(),
        fc.boolean(),
        async (isClaim, index, replacement, remove) => {
          const base = isClaim ? claim : eligibility;
          const list = isClaim ? claimPaths : eligibilityPaths;
          const target = list[index % list.length]!;
          const body = mutate({ ...base, identifier: [{ system: "https://clinic.example/claims", value: `fuzz-${index}-${Math.random()}` }] }, target, replacement, remove);
          await expectNoServerError(isClaim ? "/Claim" : "/CoverageEligibilityRequest", body);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the worst-case sizes are refused naming the limit (the portal's limits, docs/decisions/093), the largest allowed is taken", async () => {
    const claim = claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] }) as Record<string, unknown> & { item: unknown[] };
    const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ ...(claim.item[0] as Record<string, unknown>), sequence: i + 1 }));
    const raw = (body: Record<string, unknown>) => JSON.stringify({ ...body, identifier: [{ system: "https://clinic.example/claims", value: `worst-${Math.random()}` }] });
    const send = (body: Record<string, unknown> | string) => t.call("POST", "/Claim", { rawBody: typeof body === "string" ? body : raw(body), headers: { "content-type": "application/fhir+json" } });
    // Built as text: a value this deep is past what JSON.stringify's recursion takes.
    const deep = `${raw(claim).slice(0, -1)},"extension":[${'{"extension":['.repeat(5_000)}${"]}".repeat(5_000)}]}`;
    for (const [name, body, status] of [
      ["20,000 lines", { ...claim, item: lines(20_000) }, 422],
      [`${CLAIM_LIMITS.lines + 1} lines`, { ...claim, item: lines(CLAIM_LIMITS.lines + 1) }, 422],
      [`${CLAIM_LIMITS.diagnoses + 1} diagnoses`, { ...claim, diagnosis: Array.from({ length: CLAIM_LIMITS.diagnoses + 1 }, (_, i) => ({ sequence: i + 1 })) }, 422],
      ["5,000 levels of nesting", deep, 413],
    ] as const) {
      const res = await send(body);
      expect(res.status, name).toBe(status);
      expect(JSON.stringify(res.body), name).toMatch(/at most|levels deep/);
    }
    const largest = await send({ ...claim, item: lines(CLAIM_LIMITS.lines) });
    expect(largest.status, JSON.stringify(largest.body).slice(0, 300)).toBeLessThan(300);
  }, 60_000);

  it("odd paths and query strings never cause a 5xx", async () => {
    for (const p of ["/Claim/%E0%A4%A", "/Claim/..%2f..%2fetc", "/Claim?patient=%ZZ", "/ClaimResponse?request=%", "/Claim?patient=1000000001&created=ge"]) {
      const res = await t.call("GET", p);
      expect(res.status, p).toBeLessThan(500);
    }
  });
});
