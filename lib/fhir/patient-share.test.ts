import { describe, expect, it } from "vitest";
import { readCoverageEligibilityResponse } from "./read";
import { annualLeft, computeLineShares, shareTermsOf, shareTotals } from "./patient-share";

/** The one patient-share arithmetic of the portal and the sandbox (docs/decisions/091). */
describe("patient share with an annual deductible and out-of-pocket maximum", () => {
  const benefits = [
    { category: "3", copayPercent: 20, remainingMinor: 100_000 },
    { category: "5", copayPercent: 10 },
  ];
  const line = (sequence: number, code: string, category: string, priceMinor: number) => ({ sequence, code, category, quantity: 1, unitPriceMinor: priceMinor, contractPriceMinor: priceMinor });

  it("deductible partly met: the patient pays what is left of it in full, then the copay of the rest", () => {
    // 300.00 deductible, 220.00 met: 80.00 left. A 250.00 consultation: 80.00 + 20 % of 170.00 = 114.00.
    const { results, ledger } = computeLineShares([line(1, "99213", "3", 25_000)], benefits, 0, { deductibleMinor: 30_000, deductibleMetMinor: 22_000 });
    expect([results[0]!.deductibleMinor, results[0]!.patientMinor, results[0]!.payerMinor]).toEqual([8_000, 11_400, 13_600]);
    expect(annualLeft({ deductibleMinor: 30_000, deductibleMetMinor: 22_000 }, ledger)).toEqual({ deductibleLeftMinor: 0 });
  });

  it("deductible met in the middle of a visit: the first lines go to it, the line that meets it splits, the rest pay the copay", () => {
    const { results } = computeLineShares([line(1, "85025", "5", 6_000), line(2, "80053", "5", 12_000), line(3, "83036", "5", 9_000)], benefits, 0, { deductibleMinor: 10_000 });
    // 60.00 all deductible; 120.00: 40.00 deductible + 10 % of 80.00; 90.00: 10 % only.
    expect(results.map((r) => [r.deductibleMinor, r.patientMinor, r.payerMinor])).toEqual([
      [6_000, 6_000, 0],
      [4_000, 4_800, 7_200],
      [0, 900, 8_100],
    ]);
    expect(shareTotals(results).deductibleMinor).toBe(10_000);
  });

  it("out-of-pocket maximum reached: the patient's cost sharing stops there and the payer pays the rest", () => {
    // 1,500.00 maximum, 1,480.00 paid: 20.00 left. Copay of a 250.00 consultation would be 50.00.
    const annual = { deductibleMinor: 20_000, deductibleMetMinor: 20_000, outOfPocketMaxMinor: 150_000, outOfPocketPaidMinor: 148_000 };
    const { results, ledger } = computeLineShares([line(1, "99213", "3", 25_000), line(2, "99214", "3", 35_000)], benefits, 15, annual);
    expect(results.map((r) => [r.patientMinor, r.payerMinor])).toEqual([
      [2_000, 23_000],
      [0, 35_000],
    ]);
    // VAT on the line, the patient owes the VAT of their share.
    expect([results[0]!.vatMinor, results[0]!.patientVatMinor, results[1]!.patientTotalMinor]).toEqual([3_750, 300, 0]);
    expect(annualLeft(annual, ledger)).toEqual({ deductibleLeftMinor: 0, outOfPocketLeftMinor: 0 });
  });

  it("the out-of-pocket maximum caps an unmet deductible too; above the benefit limit is not cost sharing", () => {
    const { results, ledger } = computeLineShares([line(1, "99213", "3", 25_000)], [{ category: "3", copayPercent: 20, remainingMinor: 5_000 }], 0, { deductibleMinor: 50_000, outOfPocketMaxMinor: 10_000 });
    // Cost sharing 250.00 (all deductible) capped at 100.00; the payer's 150.00 capped at the 50.00 left of the benefit.
    expect([results[0]!.deductibleMinor, results[0]!.payerMinor, results[0]!.patientMinor]).toEqual([10_000, 5_000, 20_000]);
    expect([ledger.deductibleApplied, ledger.outOfPocketAdded, ledger.benefitSpent.get("3")]).toEqual([10_000, 10_000, 5_000]);
  });

  it("excluded categories are outside the deductible; without annual terms the share is the copay alone", () => {
    const { results, ledger } = computeLineShares([line(1, "92004", "F6", 20_000), line(2, "99213", "3", 25_000)], benefits, 0, { deductibleMinor: 10_000 });
    expect(results.map((r) => [r.notCovered, r.deductibleMinor, r.patientMinor])).toEqual([
      [true, 0, 20_000],
      [false, 10_000, 13_000],
    ]);
    expect(ledger.deductibleApplied).toBe(10_000);
    expect(computeLineShares([line(1, "99213", "3", 25_000)], benefits, 0).results[0]!.patientMinor).toBe(5_000);
  });

  it("reads the deductible and out-of-pocket maximum from an eligibility answer once, as R4 benefits", () => {
    const answer = {
      resourceType: "CoverageEligibilityResponse",
      status: "active",
      purpose: ["benefits"],
      patient: { reference: "Patient/2087654311" },
      created: "2026-03-01T08:00:00Z",
      request: { reference: "CoverageEligibilityRequest/1" },
      outcome: "complete",
      insurer: { reference: "Organization/payer-rimal" },
      insurance: [
        {
          coverage: { reference: "Coverage/cov-1" },
          inforce: true,
          item: [
            {
              category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-benefitcategory", code: "3" }] },
              benefit: [
                { type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/benefit-type", code: "benefit" }] }, allowedMoney: { value: 1000, currency: "SAR" }, usedMoney: { value: 100, currency: "SAR" } },
                { type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/benefit-type", code: "copay-percent" }] }, allowedUnsignedInt: 20 },
              ],
            },
            {
              category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-benefitcategory", code: "30" }] },
              benefit: [
                { type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/benefit-type", code: "deductible" }] }, allowedMoney: { value: 300, currency: "SAR" }, usedMoney: { value: 120.5, currency: "SAR" } },
                { type: { coding: [{ system: "https://platform.example/fhir/CodeSystem/benefit-type", code: "out-of-pocket-maximum" }] }, allowedMoney: { value: 3000, currency: "SAR" }, usedMoney: { value: 200, currency: "SAR" } },
              ],
            },
          ],
        },
      ],
    };
    const insurance = readCoverageEligibilityResponse(answer).view.insurances[0]!;
    expect(insurance.deductible).toEqual({ allowed: { minor: 30_000, currency: "SAR" }, used: { minor: 12_050, currency: "SAR" }, remaining: { minor: 17_950, currency: "SAR" } });
    expect(insurance.outOfPocket?.remaining.minor).toBe(280_000);
    // The plan-level item is not a benefit category with an amount of its own.
    expect(insurance.categories[1]).toMatchObject({ code: "30", annualOnly: true });
    expect(insurance.categories[1]!.allowed).toBeUndefined();
    expect(shareTermsOf(insurance)).toEqual({
      benefits: [{ category: "3", copayPercent: 20, remainingMinor: 90_000, excluded: false }],
      annual: { deductibleMinor: 30_000, deductibleMetMinor: 12_050, outOfPocketMaxMinor: 300_000, outOfPocketPaidMinor: 20_000 },
    });
  });
});
