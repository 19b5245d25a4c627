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
