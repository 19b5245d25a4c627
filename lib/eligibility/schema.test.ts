import { describe, expect, it } from "vitest";
import { eligibilityFormSchema } from "./schema";

const ok = {
  patientId: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10",
  coverageId: "6c1f4a36-9d4e-4d43-9a55-0f0f6d9f1a11",
  servicedDate: "2026-11-21",
  purposes: ["benefits"],
  categories: ["3", "3", "F6"],
};
const messages = (input: unknown) => {
  const r = eligibilityFormSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("eligibilityFormSchema", () => {
  it("accepts a check and removes duplicate categories", () => {
    expect(eligibilityFormSchema.parse(ok).categories).toEqual(["3", "F6"]);
    expect(eligibilityFormSchema.parse({ ...ok, categories: [] }).categories).toEqual([]);
  });

  it("names each bad field with a catalogue key", () => {
    expect(messages({ patientId: "", coverageId: "nope", servicedDate: "2026-02-30", purposes: [], categories: ["99"] })).toEqual({
      patientId: "patientRequired",
      coverageId: "coverageRequired",
      servicedDate: "servicedDateInvalid",
      purposes: "purposeRequired",
      categories: "categoryInvalid",
    });
  });

  it("takes no coverage as a discovery, with an insurer or every insurer, and the transfer flag", () => {
    const parsed = eligibilityFormSchema.parse({ ...ok, coverageId: "", purposes: ["benefits", "auth-requirements"] });
    expect(parsed).toMatchObject({ coverageId: "", insurerId: "", transfer: false, purposes: ["benefits", "auth-requirements"] });
    expect(eligibilityFormSchema.parse({ ...ok, insurerId: "payer-rimal", transfer: true })).toMatchObject({ insurerId: "payer-rimal", transfer: true });
    expect(messages({ ...ok, insurerId: "payer rimal; drop" })).toEqual({ insurerId: "insurerUnknown" });
  });

  it("refuses unknown purposes and garbage without throwing", () => {
    expect(eligibilityFormSchema.safeParse({ ...ok, purposes: ["discovery"] }).success).toBe(false);
    expect(eligibilityFormSchema.safeParse(null).success).toBe(false);
    expect(eligibilityFormSchema.safeParse({ ...ok, categories: "3" }).success).toBe(false);
  });
});
