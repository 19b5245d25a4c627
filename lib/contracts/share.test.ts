import { describe, expect, it } from "vitest";
import { computeShares, isCitizenId, shareTotals, vatPercentFor } from "./share";

describe("patient share and VAT (docs/decisions/091)", () => {
  const benefits = [
    { category: "3", copayPercent: 20, remainingMinor: 30_000 },
    { category: "4", copayPercent: 10 },
    { category: "F6", copayPercent: 0, excluded: true },
  ];
  it("prices at the contract, takes the copay, caps the payer at the remaining benefit in line order", () => {
    const [a, b] = computeShares(
      [
        { sequence: 1, code: "99213", category: "3", quantity: 1, unitPriceMinor: 26_000, contractPriceMinor: 25_000 },
        { sequence: 2, code: "99214", category: "3", quantity: 1, unitPriceMinor: 35_000, contractPriceMinor: 35_000 },
      ],
      benefits,
      0,
    );
    expect([a!.eligibleMinor, a!.patientMinor, a!.payerMinor]).toEqual([25_000, 5_000, 20_000]);
    // 35,000 × 80 % = 28,000 for the payer, but only 10,000 of the benefit remains.
    expect([b!.eligibleMinor, b!.payerMinor, b!.patientMinor]).toEqual([35_000, 10_000, 25_000]);
  });
  it("charges 15 % VAT to a non-Saudi patient and none to a citizen, rounded half up", () => {
    const line = [{ sequence: 1, code: "71046", category: "4", quantity: 1, unitPriceMinor: 18_005, contractPriceMinor: 18_005 }];
    const [resident] = computeShares(line, benefits, vatPercentFor("2087654311"));
    expect([resident!.patientMinor, resident!.vatMinor, resident!.patientVatMinor, resident!.patientTotalMinor]).toEqual([1_801, 2_701, 270, 2_071]);
    const [citizen] = computeShares(line, benefits, vatPercentFor("1048573628"));
    expect([citizen!.vatMinor, citizen!.patientTotalMinor]).toEqual([0, 1_801]);
    expect([isCitizenId("1000000001"), isCitizenId("2000000001"), isCitizenId("A4815162")]).toEqual([true, false, false]);
  });
  it("a category the plan excludes or lacks: the patient pays all", () => {
    const results = computeShares(
      [
        { sequence: 1, code: "92004", category: "F6", quantity: 1, unitPriceMinor: 20_000, contractPriceMinor: 20_000 },
        { sequence: 2, code: "x", category: "99", quantity: 2, unitPriceMinor: 1_000 },
      ],
      benefits,
      0,
    );
    expect(results.map((r) => [r.notCovered, r.payerMinor, r.patientMinor])).toEqual([
      [true, 0, 20_000],
      [true, 0, 2_000],
    ]);
    expect(shareTotals(results).patientTotalMinor).toBe(22_000);
  });
});
