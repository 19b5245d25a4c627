import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCoverageEligibilityResponse } from "../lib/fhir";
import { adjudicationAmount, claimBody, eligibilityRequest, processingStatus, startTestSandbox, waitFor, type TestSandbox } from "./test-support";

/**
 * The annual deductible and out-of-pocket maximum in the sandbox's adjudication and eligibility
 * answers (docs/decisions/091): a class C coverage (Nakheel, 30 % share,
 * 50.00 deductible, 500.00 out-of-pocket maximum), what each claim met carried to the next one.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 50 });
});
afterAll(async () => {
  await t.stop();
});

const classC = { patientId: "1087654321", coverageId: "cov-1087654321" };

async function decided(items: { code: string; price: number }[]) {
  const res = await t.call("POST", "/Claim", { body: claimBody({ ...classC, use: "claim", items }) });
  expect(res.status).toBe(202);
  const id = /^Claim\/([\w-]+)$/.exec(String(res.headers.location))![1]!;
  await waitFor(async () => {
    const claim = await t.call("GET", `/Claim/${id}`);
    const status = processingStatus(claim.body);
    return status === "queued" || status === "pended" ? undefined : claim;
  });
  const search = await t.call("GET", `/ClaimResponse?request=${id}`);
  return (search.body as { entry: { resource: Record<string, unknown> }[] }).entry[0]!.resource;
}

async function annual() {
  const res = await t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest(classC.patientId, "payer-nakheel") });
  expect(res.status).toBe(200);
  const insurance = readCoverageEligibilityResponse(res.body).view.insurances[0]!;
  return { deductible: insurance.deductible, outOfPocket: insurance.outOfPocket };
}

describe("sandbox: deductible and out-of-pocket maximum", () => {
  it("answers them as R4 benefits (deductible, out-of-pocket-maximum) with nothing met yet", async () => {
    const before = await annual();
    expect(before.deductible).toMatchObject({ allowed: { minor: 5_000 }, used: { minor: 0 } });
    expect(before.outOfPocket).toMatchObject({ allowed: { minor: 50_000 }, used: { minor: 0 } });
  });

  it("the patient pays in full until the deductible is met, mid-line, then the share; the next answer and claim see it", async () => {
    // Nakheel's contract prices. 38.00 urinalysis: all deductible. 142.50 X-ray: the 12.00 left of
    // the deductible + 30 % of 130.50 (39.15) = 51.15. 237.50 consultation: 30 % only = 71.25.
    const first = await decided([
      { code: "81001", price: 38 },
      { code: "73030", price: 142.5 },
      { code: "99213", price: 237.5 },
    ]);
    const split = (response: Record<string, unknown>, n: number) => ["copay", "deductible", "benefit"].map((c) => adjudicationAmount(response, n, c));
    expect([split(first, 1), split(first, 2), split(first, 3)]).toEqual([
      [38, 38, 0],
      [51.15, 12, 91.35],
      [71.25, undefined, 166.25],
    ]);
    const after = await annual();
    expect(after.deductible?.remaining.minor).toBe(0);
    expect(after.outOfPocket?.used.minor).toBe(16_040);

    // Met: the next claim pays the class share only (30 % of 332.50).
    const second = await decided([{ code: "99214", price: 332.5 }]);
    expect(split(second, 1)).toEqual([99.75, undefined, 232.75]);
    expect((await annual()).outOfPocket?.used.minor).toBe(26_015);
  });
});
