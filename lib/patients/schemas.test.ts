import { describe, expect, it } from "vitest";
import { addCoverageSchema, formatSaudiMobile, isCardDate, normalizeSaudiMobile, registerPatientSchema } from "./schemas";
import { coverageRefFor } from "./registry";

const sandbox = registerPatientSchema({ allowSandboxTestIds: true });
const production = registerPatientSchema({ allowSandboxTestIds: false });
const valid = { nationalId: "1048573628", givenName: "Huda", familyName: "Al-Sandbox", birthDate: "1990-01-09", gender: "female", phone: "0551234567" };
const firstError = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((i) => i.path[0] === field)?.message;

describe("registerPatientSchema", () => {
  it("accepts a valid registration and trims", () => {
    const parsed = production.parse({ ...valid, givenName: "  Huda ", nationalId: " 1048573628 " });
    expect(parsed.givenName).toBe("Huda");
    expect(parsed.nationalId).toBe("1048573628");
  });

  it.each([
    ["", "nationalIdEmpty"],
    ["10485a3628", "nationalIdNonDigit"],
    ["104857362", "nationalIdLength"],
    ["3048573628", "nationalIdFirstDigit"],
    ["1048573627", "nationalIdCheckDigit"],
  ])("national ID %s → %s", (nationalId, key) => {
    expect(firstError(production.safeParse({ ...valid, nationalId }), "nationalId")).toBe(key);
  });

  it("accepts the sandbox test range only when the platform is the sandbox", () => {
    expect(sandbox.safeParse({ ...valid, nationalId: "1000000001" }).success).toBe(true);
    expect(firstError(production.safeParse({ ...valid, nationalId: "1000000001" }), "nationalId")).toBe("nationalIdCheckDigit");
  });

  it("checks names, birth date, gender and phone", () => {
    const bad = production.safeParse({ nationalId: "1048573628", givenName: " ", familyName: "x".repeat(81), birthDate: "2026-02-30", gender: "x", phone: "0412345678" });
    expect(firstError(bad, "givenName")).toBe("givenNameRequired");
    expect(firstError(bad, "familyName")).toBe("nameTooLong");
    expect(firstError(bad, "birthDate")).toBe("birthDateInvalid");
    expect(firstError(bad, "gender")).toBe("genderRequired");
    expect(firstError(bad, "phone")).toBe("phoneInvalid");
    expect(firstError(production.safeParse({ ...valid, birthDate: "2999-01-01" }), "birthDate")).toBe("birthDateFuture");
    expect(firstError(production.safeParse({ ...valid, birthDate: "" }), "birthDate")).toBe("birthDateRequired");
    expect(production.safeParse({ ...valid, phone: "" }).success).toBe(true);
  });
});

describe("Saudi mobile numbers", () => {
  it.each([
    ["0512345678", "+966512345678"],
    ["+966512345678", "+966512345678"],
    ["00966 51 234 5678", "+966512345678"],
    ["512345678", "+966512345678"],
    ["055-123-4567", "+966551234567"],
  ])("%s → %s", (input, e164) => expect(normalizeSaudiMobile(input)).toBe(e164));

  it.each(["0412345678", "051234567", "+96651234567", "+9715012345678", "05123456789", "phone"])("rejects %s", (input) =>
    expect(normalizeSaudiMobile(input)).toBeUndefined(),
  );

  it("formats for reading back", () => expect(formatSaudiMobile("+966512345678")).toBe("051 234 5678"));
});

describe("addCoverageSchema", () => {
  const ok = { patientId: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10", insurerId: "payer-rimal", memberId: "RML-1", coverageRef: "cov-1000000001" };
  it("accepts a coverage and rejects malformed ids", () => {
    expect(addCoverageSchema.safeParse(ok).success).toBe(true);
    expect(firstError(addCoverageSchema.safeParse({ ...ok, coverageRef: "cov 1" }), "coverageRef")).toBe("coverageRefInvalid");
    expect(firstError(addCoverageSchema.safeParse({ ...ok, memberId: "" }), "memberId")).toBe("memberIdRequired");
    expect(firstError(addCoverageSchema.safeParse({ ...ok, patientId: "x" }), "patientId")).toBe("patientRequired");
  });

  it("takes the coverage's network and class, optional (decision 089)", () => {
    expect(addCoverageSchema.parse(ok)).toMatchObject({ network: "", coverageClass: "" });
    expect(addCoverageSchema.parse({ ...ok, network: " wadi-restricted ", coverageClass: "VIP" })).toMatchObject({ network: "wadi-restricted", coverageClass: "VIP" });
    expect(firstError(addCoverageSchema.safeParse({ ...ok, network: "wadi restricted" }), "network")).toBe("networkInvalid");
    expect(firstError(addCoverageSchema.safeParse({ ...ok, coverageClass: "x".repeat(41) }), "coverageClass")).toBe("coverageClassInvalid");
  });
});

describe("the card's expiry date (decision 126)", () => {
  const ok = { patientId: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10", insurerId: "payer-rimal", memberId: "RML-1" };
  it("is optional; a real day is kept, past ones too (the insurer decides)", () => {
    expect(addCoverageSchema.parse(ok).expiresOn).toBe("");
    expect(addCoverageSchema.parse({ ...ok, expiresOn: " 2026-12-31 " }).expiresOn).toBe("2026-12-31");
    expect(addCoverageSchema.parse({ ...ok, expiresOn: "2020-02-29" }).expiresOn).toBe("2020-02-29");
  });

  it.each(["2026-02-30", "2026-13-01", "31/12/2026", "2026-1-5", "1999-12-31", "2101-01-01", "tomorrow"])("refuses %s in words", (expiresOn) =>
    expect(firstError(addCoverageSchema.safeParse({ ...ok, expiresOn }), "expiresOn")).toBe("expiresOnInvalid"),
  );

  it("is not before the card's start when one is known", () => {
    expect(firstError(addCoverageSchema.safeParse({ ...ok, startsOn: "2026-01-01", expiresOn: "2025-12-31" }), "expiresOn")).toBe("expiresBeforeStart");
    expect(addCoverageSchema.safeParse({ ...ok, startsOn: "2026-01-01", expiresOn: "2026-01-01" }).success).toBe(true);
    expect(addCoverageSchema.safeParse({ ...ok, startsOn: "2026-01-01" }).success).toBe(true);
  });

  it("isCardDate: real days from 2000 to 2100 only", () => {
    expect(isCardDate("2028-02-29")).toBe(true);
    expect(isCardDate("2027-02-29")).toBe(false);
    expect(isCardDate("")).toBe(false);
  });
});

describe("the exchange's coverage id: asked only when known (decision 122)", () => {
  const ok = { patientId: "5b0f4a36-9d4e-4d43-9a55-0f0f6d9f1a10", insurerId: "payer-rimal", memberId: "RML-1/22" };
  it("may be left blank on the form", () => {
    expect(addCoverageSchema.parse(ok).coverageRef).toBe("");
  });
  it("is kept when given; made from the member number over messaging; required over the spec's REST", () => {
    expect(coverageRefFor({ ...ok, coverageRef: "cov-9" }, "rest")).toBe("cov-9");
    expect(coverageRefFor({ ...ok, coverageRef: "" }, "messaging")).toBe("mbr-RML-1-22");
    expect(coverageRefFor({ ...ok, coverageRef: "" }, "rest")).toBeUndefined();
  });
});
