import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readBundle, readClaimResponse, readCoverageEligibilityResponse, readOperationOutcome } from "./index";
import { r4Resource } from "./testing/r4-arbitrary";

/**
 * Property: on any valid R4 answer (generated from the official R4 JSON schema), the readers never
 * throw, and `raw` is the input exactly (deep-equal, unchanged). 2,000 samples per answer type.
 */
const RUNS = 2_000;

const cases = [
  ["ClaimResponse", readClaimResponse],
  ["CoverageEligibilityResponse", readCoverageEligibilityResponse],
  ["OperationOutcome", readOperationOutcome],
  ["Bundle", readBundle],
] as const;

describe("readers on generated valid R4", () => {
  for (const [type, read] of cases) {
    it(`${type}: ${RUNS} generated answers read without error, raw equal to the input`, () => {
      let seen = 0;
      fc.assert(
        fc.property(r4Resource(type), (resource) => {
          const copy = structuredClone(resource);
          const result = read(resource);
          expect(result.raw).toEqual(copy);
          expect(resource).toEqual(copy);
          // The view is plain data: it survives JSON storage (response_view) unchanged.
          expect(JSON.parse(JSON.stringify(result.view))).toEqual(result.view);
          seen++;
        }),
        { numRuns: RUNS },
      );
      expect(seen).toBe(RUNS);
    }, 120_000);
  }
});

describe("a view survives JSON storage", () => {
  it("reads an amount of -0 as 0 (JSON cannot keep the sign; found by the property above)", () => {
    const answer = {
      resourceType: "ClaimResponse",
      status: "active",
      type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
      use: "claim",
      patient: { reference: "Patient/1000000001" },
      created: "2026-11-23T10:00:00Z",
      insurer: { reference: "Organization/payer-rimal" },
      outcome: "complete",
      total: [{ category: { coding: [{ code: "benefit" }] }, amount: { value: -0, currency: "SAR" } }],
      item: [{ itemSequence: 1, adjudication: [{ category: { coding: [{ code: "benefit" }] }, amount: { value: -0, currency: "SAR" }, value: -0 }] }],
    };
    const { view } = readClaimResponse(answer);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});
