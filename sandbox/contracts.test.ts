import { describe, expect, it } from "vitest";
import { CODE_SYSTEMS, nphies, parsePriceListCsv } from "../lib/fhir";
import { adjudicate, type AdjudicationContext } from "./adjudication";
import { NPHIES_CATALOGUE } from "./catalogue";
import { buildReferenceData, contractRowFor, type ReferenceData } from "./reference-data";
import { claimBody } from "./test-support";
import { validateClaim } from "./validation";

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

describe("the exchange's own codes are priced by the same contract file (docs/decisions/089)", () => {
  const reference = buildReferenceData("clinic-001");
  const today = new Date().toISOString().slice(0, 10);

  it("has a row for every exchange catalogue code of every payer: the catalogue's price, authorization and package contents", () => {
    for (const payer of reference.payers) {
      const coverage = [...reference.coverages.values()].find((c) => c.payerId === payer.id && !c.network && !c.coverageClass)!;
      for (const entry of NPHIES_CATALOGUE) {
        const row = contractRowFor(reference, coverage, entry.system, entry.code, today);
        expect(row, `${payer.id} ${entry.code}`).toBeDefined();
        expect(row!.priceMinor, `${payer.id} ${entry.code}`).toBe(entry.price);
        expect(row!.authorizationRequired, `${payer.id} ${entry.code}`).toBe(entry.requiresPreauth ?? false);
        expect(row!.includes, `${payer.id} ${entry.code}`).toEqual([...(entry.includes ?? [])]);
      }
    }
  });

  it("pays an exchange code at its contract row, not the catalogue's price", () => {
    const claimOf = (ref: ReferenceData) => {
      const body = claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "SVC-0102", price: 300 }] });
      const items = body.item as { productOrService: { coding: { system: string }[] } }[];
      items[0]!.productOrService.coding[0]!.system = nphies.SYSTEMS.services;
      return validateClaim(body, ref, "clinic-001");
    };
    const ctx = (ref: ReferenceData): AdjudicationContext => ({ now: Date.now(), reference: ref, consumed: () => 0, findPreAuth: () => undefined });
    // The shipped contract: the catalogue's 300.00, paid in full.
    const shipped = adjudicate(claimOf(reference), ctx(reference));
    expect(shipped.items[0]!.eligible).toBe(30_000);
    expect(shipped.items[0]!.reason).toBeUndefined();
    // A contract that prices it 280.00 for Rimal: the sandbox pays 280.00 and says why.
    const rows = parsePriceListCsv("insurer,system,code,price,effective_from\npayer-rimal,services,SVC-0102,280.00,2020-01-01\n").rows;
    const repriced = { ...reference, contracts: rows };
    const lower = adjudicate(claimOf(repriced), ctx(repriced));
    expect(lower.items[0]!.eligible).toBe(28_000);
    expect(lower.items[0]!.reason).toBe("price-list");
  });
});
