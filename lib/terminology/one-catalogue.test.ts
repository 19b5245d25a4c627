import { describe, expect, it } from "vitest";
import { ICD10AM_CODES } from "@/lib/fhir";
import { DEMO_CATALOGUE } from "./demo-catalogue";

describe("the diagnosis picker and the sandbox read one ICD-10-AM list (decision 104)", () => {
  it("every diagnosis the picker offers is one lib/fhir's list holds (what the sandbox knows), K02.9 among them", () => {
    const picker = DEMO_CATALOGUE["icd-10-am"].map(([code]) => code);
    expect(picker).toEqual(ICD10AM_CODES.map((e) => e.code));
    expect(picker).toContain("K02.9");
  });
});
