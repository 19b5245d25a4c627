import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { ADJUDICATION_REASONS, nphies } from "@/lib/fhir";
import { queryRows } from "@/lib/db";
import { testDatabases } from "@/lib/testing/databases";
import { classifyReason, familyName, FIXABLE_FAMILIES, PORTAL_REASON_FAMILIES, reasonLabel } from "./index";

describe("classification table", () => {
  it("classifies the exchange's codes by family and gives their words in both languages", () => {
    expect(classifyReason("MN-1-1")).toMatchObject({ code: "MN-1-1", family: "MN", fixable: false });
    expect(classifyReason("MN-1-1").words?.en).toMatch(/not clinically justified/);
    expect(classifyReason("BE-1-2")).toEqual({ code: "BE-1-2", family: "BE", words: { en: "Service was not performed", ar: "لم يتم تنفيذ الخدمة" }, fixable: true });
    expect(classifyReason("SE-1-1")).toMatchObject({ family: "SE", fixable: true });
    expect(classifyReason("CV-4-5")).toMatchObject({ family: "CV", fixable: false });
    expect(classifyReason("AD-2-6")).toMatchObject({ family: "AD", fixable: true });
    // A code of a family the table has no words for: family by prefix, shown as given.
    expect(classifyReason("CV-9-99")).toEqual({ code: "CV-9-99", family: "CV", fixable: false });
    expect(reasonLabel("CV-9-99", "ar")).toEqual({ text: "CV-9-99", known: false });
  });

  it("has words in both languages for every code of its table, and each code's prefix is its family", () => {
    for (const [code, words] of Object.entries(nphies.REJECTION_REASONS)) {
      expect(words.en.trim(), code).not.toBe("");
      expect(words.ar, code).toMatch(/[\u0600-\u06FF]/);
      expect(classifyReason(code).family, code).toBe(code.slice(0, 2));
    }
    // Every family has at least one code with words.
    for (const family of Object.keys(nphies.REJECTION_FAMILIES)) expect(Object.keys(nphies.REJECTION_REASONS).some((c) => c.startsWith(family)), family).toBe(true);
  });

  it("maps the readers' and the sandbox's own reasons into families, with their words", () => {
    expect(Object.keys(PORTAL_REASON_FAMILIES).sort()).toEqual(Object.keys(ADJUDICATION_REASONS).sort());
    expect(classifyReason("ar001")).toMatchObject({ family: "CV", words: ADJUDICATION_REASONS.ar001, fixable: false });
    expect(classifyReason("ar002").family).toBe("CV");
    expect(classifyReason("coverage-inactive").family).toBe("CV");
    expect(classifyReason("price-list")).toMatchObject({ family: "BE", fixable: true });
    expect(classifyReason("preauth-required")).toMatchObject({ family: "AD", fixable: true });
  });

  it("keeps unknown and payer codes as given, family unknown", () => {
    expect(classifyReason("PAYER-77")).toEqual({ code: "PAYER-77", fixable: false });
    expect(classifyReason("CVX")).toEqual({ code: "CVX", fixable: false });
    expect(classifyReason("")).toEqual({ code: "", fixable: false });
    expect(classifyReason(undefined)).toEqual({ code: "", fixable: false });
    expect(reasonLabel("PAYER-77", "en")).toEqual({ text: "PAYER-77", known: false });
    expect(familyName("", "en")).toBeUndefined();
    expect(familyName("SE", "ar")).toBe("المستندات الداعمة");
    expect(FIXABLE_FAMILIES).toEqual(["AD", "BE", "SE"]);
  });
});

const SAMPLES = [
  ...Object.keys(nphies.REJECTION_REASONS),
  ...Object.keys(ADJUDICATION_REASONS),
  "mn-2-3",
  "AD_1",
  "CV-9-99",
  "PAYER-77",
  "CVX",
  "XX-1-1",
  "",
  " BE-1-2 ",
];

describe.each(testDatabases())("the database's classification on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  it("agrees with classifyReason on every code of the table and the odd ones", async () => {
    const rows = await queryRows<{ code: string; family: string }>(
      database.db,
      sql`select c as code, denial_family(c) as family from jsonb_array_elements_text(${JSON.stringify(SAMPLES)}::jsonb) with ordinality e (c, n) order by n`,
    );
    expect(rows.map((r) => [r.code, r.family])).toEqual(SAMPLES.map((c) => [c, classifyReason(c).family ?? ""]));
  });
});
