import { describe, expect, it } from "vitest";
import {
  ADJUDICATION_CATEGORIES,
  BENEFIT_CATEGORIES,
  claimProcessingStatus,
  claimProcessingStatusExtension,
  ClaimSchema,
  formatMinorUnits,
  fromMinorUnits,
  isBenefitCategoryCode,
  operationOutcome,
  OperationOutcomeSchema,
  parseReference,
  percentOf,
  PLATFORM_ERROR_SYSTEM,
  PLATFORM_ERRORS,
  platformErrorFromOutcome,
  platformIssue,
  toMinorUnits,
} from "./index";

describe("platform error table", () => {
  it("pairs every code with the spec's meaning, resolution and an HTTP status", () => {
    expect(Object.entries(PLATFORM_ERRORS).map(([code, e]) => [code, e.meaning, e.resolution, e.httpStatus])).toEqual([
      ["ERR-001", "Invalid identifier", "Check the patient identifier", 400],
      ["ERR-002", "Coverage not found", "Verify the policy", 404],
      ["ERR-003", "Invalid code", "Use a valid code", 422],
      ["ERR-004", "Missing required field", "Complete all fields", 422],
      ["ERR-005", "Duplicate submission", "Check prior claims", 409],
    ]);
  });

  it("builds and reads OperationOutcomes with the platform code", () => {
    const outcome = operationOutcome([platformIssue({ code: "ERR-003", diagnostics: "Claim.item[0]: bad", expression: ["Claim.item[0]"] })]);
    expect(OperationOutcomeSchema.parse(outcome).issue[0]?.details?.coding?.[0]).toMatchObject({ system: PLATFORM_ERROR_SYSTEM, code: "ERR-003" });
    expect(platformErrorFromOutcome(outcome)).toEqual({
      code: "ERR-003",
      meaning: "Invalid code",
      resolution: "Use a valid code",
      diagnostics: "Claim.item[0]: bad",
      expression: ["Claim.item[0]"],
    });
    expect(platformErrorFromOutcome(operationOutcome([{ severity: "error", code: "throttled" }])).code).toBeUndefined();
  });
});

describe("code systems", () => {
  it("has English and Arabic names for the standard benefit categories", () => {
    expect(Object.keys(BENEFIT_CATEGORIES)).toHaveLength(28);
    expect(BENEFIT_CATEGORIES["3"].en).toBe("Consultation");
    for (const d of [...Object.values(BENEFIT_CATEGORIES), ...Object.values(ADJUDICATION_CATEGORIES)]) expect(d.ar).toMatch(/[\u0600-\u06FF]/);
    expect(isBenefitCategoryCode("F6")).toBe(true);
    expect(isBenefitCategoryCode("toString")).toBe(false);
  });
});

describe("money", () => {
  it("converts riyals to halalas exactly and refuses sub-halala amounts", () => {
    expect(toMinorUnits(0.1 + 0.2)).toBe(30);
    expect(toMinorUnits(249.99)).toBe(24999);
    expect(toMinorUnits(1.005)).toBeUndefined();
    expect(toMinorUnits(-1)).toBeUndefined();
    expect(toMinorUnits(Number.NaN)).toBeUndefined();
    expect(fromMinorUnits(74997)).toBe(749.97);
    expect(formatMinorUnits(123456789)).toBe("1,234,567.89");
    expect(percentOf(74997, 10)).toBe(7500);
    expect(percentOf(74994, 10)).toBe(7499);
  });
});

describe("schemas and references", () => {
  it("parses a Claim and keeps the processing status extension", () => {
    const claim = ClaimSchema.parse({
      resourceType: "Claim",
      id: "abc",
      extension: [claimProcessingStatusExtension("pended")],
      status: "active",
      type: { coding: [{ code: "institutional" }] },
      use: "claim",
      patient: { reference: "Patient/1000000001" },
      created: "2026-01-01T10:00:00Z",
      provider: { reference: "Organization/clinic-001" },
      priority: { coding: [{ code: "normal" }] },
      insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1" } }],
      futureField: "ignored",
    });
    expect(claimProcessingStatus(claim)).toBe("pended");
    expect("futureField" in claim).toBe(false);
    expect(ClaimSchema.safeParse({ ...claim, created: "yesterday" }).success).toBe(false);
    expect(ClaimSchema.safeParse({ ...claim, patient: { reference: "1000000001" } }).success).toBe(false);
  });

  it("splits references", () => {
    expect(parseReference("Patient/1000000001", "Patient")).toEqual({ type: "Patient", id: "1000000001" });
    expect(parseReference("Patient/1000000001", "Organization")).toBeUndefined();
    expect(parseReference("Patient/")).toBeUndefined();
  });
});
