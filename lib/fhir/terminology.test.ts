import { describe, expect, it } from "vitest";
import { CPT_CODES, ICD10AM_CODES, findCode, isCptCode, isIcd10amCode, searchTerminology } from "./terminology";

describe("curated terminology", () => {
  it("has unique codes with English and Arabic descriptions", () => {
    for (const list of [CPT_CODES, ICD10AM_CODES]) {
      expect(new Set(list.map((e) => e.code)).size).toBe(list.length);
      for (const e of list) {
        expect(e.display.en.length).toBeGreaterThan(2);
        expect(e.display.ar).toMatch(/[\u0600-\u06FF]/);
      }
    }
    expect(isCptCode("72148")).toBe(true);
    expect(isCptCode("99999")).toBe(false);
    expect(isIcd10amCode("M54.5")).toBe(true);
    expect(findCode("icd10am", "R51")?.display.en).toBe("Headache");
  });

  it("finds by code prefix, with or without the dot, and by words in either language", () => {
    expect(searchTerminology("icd10am", "m545").map((e) => e.code)).toEqual(["M54.5"]);
    expect(searchTerminology("icd10am", "M54.").map((e) => e.code)).toEqual(["M54.5"]);
    expect(searchTerminology("cpt", "721").map((e) => e.code)).toEqual(["72148"]);
    expect(searchTerminology("cpt", "back mri").map((e) => e.code)).toEqual(["72148"]);
    expect(searchTerminology("icd10am", "back pain").map((e) => e.code)).toEqual(["M54.5"]);
    expect(searchTerminology("icd10am", "ظهر").map((e) => e.code)).toEqual(["M54.5"]);
    expect(searchTerminology("cpt", "رنين").map((e) => e.code).sort()).toEqual(["70553", "72148"]);
    expect(searchTerminology("cpt", "zzz")).toEqual([]);
    expect(searchTerminology("cpt", "").length).toBe(Math.min(20, CPT_CODES.length));
  });
});
