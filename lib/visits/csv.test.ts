import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv";
import { checkVisitItems, readVisitCsv } from "./rows";
import { verdictOfBenefits } from "./verdict";

const insurers = [
  { id: "payer-rimal", nameEn: "Rimal Cooperative Health Insurance", nameAr: "رمال للتأمين الصحي التعاوني" },
  { id: "payer-wadi", nameEn: "Wadi Takaful Health", nameAr: "وادي للتكافل الصحي" },
];
const options = { insurers, allowSandboxTestIds: true };

describe("visit list CSV", () => {
  it("reads quotes, doubled quotes, CRLF, semicolons and keeps each record's first line", () => {
    expect(parseCsv('a,b\r\n"x, y","he said ""hi"""\r\n\r\n"multi\nline",z\n')).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'he said "hi"'] },
      { line: 4, fields: ["multi\nline", "z"] },
    ]);
    expect(parseCsv("national_id;date\n1000000001;2026-03-01")).toEqual([
      { line: 1, fields: ["national_id", "date"] },
      { line: 2, fields: ["1000000001", "2026-03-01"] },
    ]);
  });

  it("reports bad rows by line with the reason, and keeps the good ones", () => {
    const csv = [
      "national_id,date,insurer,services",
      "1000000001,2026-03-01,payer-rimal,99213 71046",
      "1234567890,2026-03-01,,", // check digit
      "1048573628,2026-02-30,payer-nakheel,", // impossible date (and an insurer the clinic does not work with)
      "2087654311,2026-03-02,Rimal Cooperative Health Insurance,",
      "1122334459,2026-03-02,payer-unknown,99999",
      "",
      "1000000002,2026-03-03,وادي للتكافل الصحي,",
    ].join("\n");
    const result = readVisitCsv(csv, options);
    expect(result.total).toBe(6);
    expect(result.good.map((g) => [g.line, g.nationalId, g.insurerId ?? null])).toEqual([
      [2, "1000000001", "payer-rimal"],
      [5, "2087654311", "payer-rimal"],
      [8, "1000000002", "payer-wadi"],
    ]);
    expect(result.good[0]!.services).toEqual(["99213", "71046"]);
    const byLine = (line: number) => result.problems.filter((p) => p.line === line).map((p) => p.code);
    expect(byLine(3)).toEqual(["national_id_check-digit"]);
    expect(result.problems.find((p) => p.line === 3)!.message.en).toMatch(/check digit/);
    expect(result.problems.find((p) => p.line === 3)!.message.ar).toMatch(/رقم التحقق/);
    expect(byLine(4)).toEqual(["date_impossible", "insurer_unknown"]);
    expect(byLine(6)).toEqual(["insurer_unknown", "service_unknown"]);
  });

  it("says which required column is missing", () => {
    const result = readVisitCsv("id_number,when\n1000000001,2026-03-01", options);
    expect(result.good).toEqual([]);
    expect(result.problems.map((p) => p.message.en)).toEqual(['The header has no "national_id" column.', 'The header has no "date" column.']);
  });

  it("checks JSON items the same way (line = item number)", () => {
    const result = checkVisitItems([{ nationalId: "1000000001", serviceDate: "2026-03-01" }, { nationalId: "1000000001", serviceDate: "2026-13-01" }], options);
    expect(result.good).toHaveLength(1);
    expect(result.problems).toMatchObject([{ line: 2, field: "serviceDate", code: "date_impossible" }]);
  });
});

describe("the card's expiry on a row (decision 126)", () => {
  const row = { nationalId: "1234567897", serviceDate: "2026-03-02", givenName: "Sami", familyName: "Newpatient", birthDate: "1990-02-03", memberId: "RML-1", coverageRef: "cov-1" };
  it("is carried with the registration; a CSV column names it", () => {
    expect(checkVisitItems([{ ...row, coverageExpiresOn: "2027-06-30" }], options).good[0]?.registration).toMatchObject({ coverageExpiresOn: "2027-06-30" });
    const csv = readVisitCsv("national_id,date,given_name,family_name,birth_date,member_id,coverage_ref,card_expiry\n1234567897,2026-03-02,Sami,Newpatient,1990-02-03,RML-1,cov-1,2027-06-30\n", options);
    expect(csv.good[0]?.registration).toMatchObject({ memberId: "RML-1", coverageExpiresOn: "2027-06-30" });
  });

  it("an expiry that is no real day (2000–2100) is the row's problem, in both languages", () => {
    const result = checkVisitItems([{ ...row, coverageExpiresOn: "2026-02-30" }], options);
    expect(result.good).toHaveLength(0);
    expect(result.problems).toMatchObject([{ line: 1, field: "coverageExpiresOn", code: "coverage_expiry_impossible" }]);
    expect(result.problems[0]!.message.ar).toContain("2026-02-30");
  });
});

describe("verdicts", () => {
  const category = (code: string, over: Record<string, unknown> = {}) => ({ code, known: true, excluded: false, authorizationRequired: false, authorizationSupporting: [], benefits: [], ...over });
  const view = (categories: ReturnType<typeof category>[], inforce = true) => ({ inforce, insurances: [{ inforce, categories }] });
  it("names the most serious problem of the planned services", () => {
    const money = (minor: number) => ({ minor, currency: "SAR" });
    const benefits = view([
      category("3", { remaining: money(375_000), usedPercent: 25 }),
      category("4", { remaining: money(20_000), usedPercent: 97 }),
      category("F6", { remaining: money(0), usedPercent: 100 }),
      category("62", { remaining: money(1_000_000), usedPercent: 0, authorizationRequired: true }),
    ]);
    expect(verdictOfBenefits(benefits, ["99213"], 20).verdict).toBe("in_force");
    expect(verdictOfBenefits(benefits, ["99213", "71046"], 20).verdict).toBe("benefit_low");
    expect(verdictOfBenefits(benefits, ["71046"], 2).verdict).toBe("in_force");
    expect(verdictOfBenefits(benefits, ["70553", "71046"], 20).verdict).toBe("preauth_required");
    expect(verdictOfBenefits(benefits, ["70553", "92004"], 20).verdict).toBe("benefit_exhausted");
    expect(verdictOfBenefits(benefits, ["59400"], 20).verdict).toBe("no_coverage");
    expect(verdictOfBenefits(view([], false), ["99213"], 20).verdict).toBe("not_in_force");
    expect(verdictOfBenefits(benefits, ["70553", "92004"], 20).detail.problems.map((p) => p.verdict)).toEqual(["benefit_exhausted", "preauth_required"]);
  });
});
