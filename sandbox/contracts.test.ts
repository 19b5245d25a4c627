import { describe, expect, it } from "vitest";
import { CODE_SYSTEMS } from "../lib/fhir";
import { buildReferenceData, contractRowFor } from "./reference-data";

describe("the sandbox prices from the payers' contracts (docs/decisions/089)", () => {
  const reference = buildReferenceData("clinic-001");
  const coverage = (id: string) => reference.coverages.get(id)!;
  it("loads the demo contract file the portal seeds", () => {
    expect(reference.contracts.length).toBeGreaterThan(60);
  });
  it("takes the version of the service date and the coverage's class and network", () => {
    const rimal = coverage("cov-1000000001");
    expect(contractRowFor(reference, rimal, CODE_SYSTEMS.cpt, "99213", "2025-06-01")!.priceMinor).toBe(23_000);
    expect(contractRowFor(reference, rimal, CODE_SYSTEMS.cpt, "99213", "2026-06-01")!.priceMinor).toBe(25_000);
    expect(contractRowFor(reference, coverage("cov-2456789011"), CODE_SYSTEMS.cpt, "99214", "2026-06-01")!.priceMinor).toBe(42_000);
    expect(contractRowFor(reference, coverage("cov-2176543219"), CODE_SYSTEMS.cpt, "99213", "2026-06-01")!.priceMinor).toBe(20_000);
    expect(contractRowFor(reference, rimal, "http://example.org/other", "99213", "2026-06-01")).toBeUndefined();
  });
});
