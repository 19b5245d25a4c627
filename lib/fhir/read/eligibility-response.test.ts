import type { CoverageEligibilityResponse, CoverageEligibilityResponseInsuranceItem } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { benefitCategoryName } from "../systems";
import { readCoverageEligibilityResponse } from "./eligibility-response";

const readBenefits = (response: CoverageEligibilityResponse) => readCoverageEligibilityResponse(response).view;

const CAT = "http://terminology.hl7.org/CodeSystem/ex-benefitcategory";
const TYPE = "http://terminology.hl7.org/CodeSystem/benefit-type";

function item(code: string, allowed: number | undefined, used: number | undefined, extra: Partial<CoverageEligibilityResponseInsuranceItem> = {}): CoverageEligibilityResponseInsuranceItem {
  return {
    category: { coding: [{ system: CAT, code }] },
    benefit: [
      {
        type: { coding: [{ system: TYPE, code: "benefit" }] },
        ...(allowed === undefined ? {} : { allowedMoney: { value: allowed, currency: "SAR" as const } }),
        ...(used === undefined ? {} : { usedMoney: { value: used, currency: "SAR" as const } }),
      },
      { type: { coding: [{ system: TYPE, code: "copay-percent" }] }, allowedUnsignedInt: 20 },
    ],
    ...extra,
  };
}

function response(insurance: CoverageEligibilityResponse["insurance"]): CoverageEligibilityResponse {
  return {
    resourceType: "CoverageEligibilityResponse",
    identifier: [{ value: "resp-1" }],
    status: "active",
    purpose: ["benefits"],
    patient: { reference: "Patient/1000000001" },
    created: "2026-11-21T09:00:00Z",
    request: { reference: "CoverageEligibilityRequest/abc" },
    outcome: "complete",
    insurer: { reference: "Organization/payer-rimal" },
    servicedDate: "2026-11-21",
    insurance,
  };
}

describe("readCoverageEligibilityResponse: benefits", () => {
  it("reads exact minor units: allowed, used, remaining (no float drift)", () => {
    const view = readBenefits(response([{ coverage: { reference: "Coverage/cov-1000000001" }, inforce: true, item: [item("3", 5000, 1250.1), item("4", 0.3, 0.1)] }]));
    expect(view.inforce).toBe(true);
    expect(view.insurerId).toBe("payer-rimal");
    expect(view.responseId).toBe("resp-1");
    const [consult, xray] = view.insurances[0]!.categories;
    expect(consult).toMatchObject({
      code: "3",
      known: true,
      allowed: { minor: 500_000, currency: "SAR" },
      used: { minor: 125_010, currency: "SAR" },
      remaining: { minor: 374_990, currency: "SAR" },
      usedPercent: 25,
      copayPercent: 20,
    });
    // 0.3 − 0.1 in floats is 0.19999999999999998; in halalas it is exactly 20.
    expect(xray!.remaining).toEqual({ minor: 20, currency: "SAR" });
    expect(view.insurances[0]!.coverageId).toBe("cov-1000000001");
  });

  it("never shows a negative remaining amount, and caps the bar at 100%", () => {
    const view = readBenefits(response([{ coverage: { reference: "Coverage/cov-1" }, inforce: true, item: [item("F6", 1500, 1500), item("4", 8000, 8200)] }]));
    const [vision, xray] = view.insurances[0]!.categories;
    expect(vision!.remaining).toEqual({ minor: 0, currency: "SAR" });
    expect(vision!.usedPercent).toBe(100);
    expect(xray!.remaining).toEqual({ minor: 0, currency: "SAR" });
    expect(xray!.usedPercent).toBe(100);
  });

  it("keeps several insurances apart; in force when any is", () => {
    const view = readBenefits(
      response([
        { coverage: { reference: "Coverage/cov-a" }, inforce: false },
        { coverage: { reference: "Coverage/cov-b" }, inforce: true, item: [item("1", 100, 0)] },
      ]),
    );
    expect(view.inforce).toBe(true);
    expect(view.insurances.map((i) => [i.coverageId, i.inforce, i.categories.length])).toEqual([
      ["cov-a", false, 0],
      ["cov-b", true, 1],
    ]);
    expect(view.insurances[1]!.categories[0]!.remaining).toEqual({ minor: 10_000, currency: "SAR" });
  });

  it("not in force, no insurance at all, excluded and unknown categories", () => {
    expect(readBenefits(response([{ coverage: { reference: "Coverage/cov-x" }, inforce: false }])).inforce).toBe(false);
    expect(readBenefits(response(undefined))).toMatchObject({ inforce: false, insurances: [] });
    const view = readBenefits(
      response([
        {
          coverage: { reference: "Coverage/cov-1" },
          inforce: true,
          item: [
            { category: { coding: [{ system: CAT, code: "61" }] }, excluded: true, name: "In-vitro Fertilization (not covered)" },
            item("ZZ", 10, undefined, { name: "Payer special" }),
          ],
        },
      ]),
    );
    const [ivf, special] = view.insurances[0]!.categories;
    expect(ivf).toMatchObject({ code: "61", excluded: true, known: true });
    expect(ivf!.allowed).toBeUndefined();
    expect(ivf!.remaining).toBeUndefined();
    // Used missing → 0 used, all remaining.
    expect(special).toMatchObject({ code: "ZZ", known: false, payerName: "Payer special", used: { minor: 0 }, remaining: { minor: 1000 } });
  });

  it("does not subtract amounts in different currencies", () => {
    const view = readBenefits(
      response([
        {
          coverage: { reference: "Coverage/cov-1" },
          inforce: true,
          item: [{ category: { coding: [{ system: CAT, code: "1" }] }, benefit: [{ type: { coding: [{ system: TYPE, code: "benefit" }] }, allowedMoney: { value: 100, currency: "SAR" }, usedMoney: { value: 10, currency: "USD" as const } }] }],
        },
      ]),
    );
    expect(view.insurances[0]!.categories[0]!.remaining).toBeUndefined();
  });

  it("names categories in the UI language", () => {
    expect(benefitCategoryName("3", "en")).toBe("Consultation");
    expect(benefitCategoryName("3", "ar")).toBe("الاستشارة");
    expect(benefitCategoryName("ZZ", "ar", "Payer special")).toBe("Payer special");
  });
});
