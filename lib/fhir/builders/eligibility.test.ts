import { describe, expect, it } from "vitest";
import { CoverageEligibilityRequestSchema } from "../schemas";
import { buildEligibilityRequest } from "./eligibility";

const base = {
  identifierValue: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10",
  nationalId: "1000000001",
  insurerId: "payer-rimal",
  providerOrgId: "clinic-001",
  servicedDate: "2026-11-21",
  purposes: ["benefits", "validation"] as const,
  categories: ["3", "F6"] as const,
  // 02:30 in Riyadh on the 22nd is still the 21st in UTC: created is sent in UTC.
  created: new Date("2026-11-21T23:30:00+03:00"),
};

describe("buildEligibilityRequest", () => {
  it("builds exactly the resource the spec describes", () => {
    expect(buildEligibilityRequest({ ...base, purposes: [...base.purposes], categories: [...base.categories] })).toEqual({
      resourceType: "CoverageEligibilityRequest",
      identifier: [{ system: "https://clinic.example/fhir/eligibility-request-id/clinic-001", value: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10" }],
      status: "active",
      purpose: ["benefits", "validation"],
      patient: { reference: "Patient/1000000001" },
      servicedDate: "2026-11-21",
      created: "2026-11-21T20:30:00.000Z",
      provider: { reference: "Organization/clinic-001" },
      insurer: { reference: "Organization/payer-rimal" },
      item: [
        { category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-benefitcategory", code: "3" }] } },
        { category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-benefitcategory", code: "F6" }] } },
      ],
    });
  });

  it("leaves item out when no category is asked for (the platform then lists the whole plan)", () => {
    const resource = buildEligibilityRequest({ ...base, purposes: ["validation"], categories: [] });
    expect(resource).not.toHaveProperty("item");
    expect(resource.purpose).toEqual(["validation"]);
  });

  it("orders purposes canonically, drops duplicate categories, and never sends insurance", () => {
    const resource = buildEligibilityRequest({ ...base, purposes: ["validation", "benefits"], categories: ["1", "1", "5"] });
    expect(resource.purpose).toEqual(["benefits", "validation"]);
    expect(resource.item?.map((i) => i.category?.coding?.[0]?.code)).toEqual(["1", "5"]);
    expect(resource).not.toHaveProperty("insurance");
    expect(Object.keys(resource).sort()).toEqual(
      ["resourceType", "identifier", "status", "purpose", "patient", "servicedDate", "created", "provider", "insurer", "item"].sort(),
    );
  });

  it("passes the shared resource schema", () => {
    expect(CoverageEligibilityRequestSchema.safeParse(buildEligibilityRequest({ ...base, purposes: ["benefits"], categories: ["62"] })).success).toBe(true);
  });
});
