import { describe, expect, it } from "vitest";
import { EMPTY_CLINICAL, admissionWeightIssue } from "./clinical-schema";

/** Table 35's admission weight: an inpatient stay of a baby under one year carries it (decision 103). */
describe("the admission weight of a baby's stay", () => {
  const stay = { claimType: "institutional" as const, subtype: "ip" as const, use: "claim" as const, admission: "2026-11-20T08:00", clinical: EMPTY_CLINICAL };

  it("is asked of a baby under one year at admission", () => {
    expect(admissionWeightIssue(stay, "2026-06-01")).toEqual({ path: ["clinical", "admissionWeight"], message: "admissionWeightRequired" });
    expect(admissionWeightIssue({ ...stay, clinical: { ...EMPTY_CLINICAL, admissionWeight: "6.4" } }, "2026-06-01")).toBeUndefined();
  });

  it("is not asked from the first birthday on, outside a stay, or without a birth date", () => {
    expect(admissionWeightIssue(stay, "2025-11-20")).toBeUndefined();
    expect(admissionWeightIssue(stay, "2025-11-21")).toEqual({ path: ["clinical", "admissionWeight"], message: "admissionWeightRequired" });
    expect(admissionWeightIssue({ ...stay, claimType: "professional", subtype: "op" }, "2026-06-01")).toBeUndefined();
    expect(admissionWeightIssue(stay, undefined)).toBeUndefined();
    expect(admissionWeightIssue({ ...stay, admission: "" }, "2026-06-01")).toBeUndefined();
  });
});
