import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkNationalId, isSandboxTestId, isValidNationalId, nationalIdCheckDigit, SANDBOX_TEST_ID_RANGE } from "./national-id";

const body9 = fc.tuple(fc.constantFrom("1", "2"), fc.stringMatching(/^\d{8}$/)).map(([first, rest]) => first + rest);

describe("national ID / Iqama validation", () => {
  it("accepts every 9-digit body completed with its check digit", () => {
    fc.assert(
      fc.property(body9, (body) => {
        const id = body + nationalIdCheckDigit(body);
        const result = checkNationalId(id);
        return result.valid && result.kind === (id.startsWith("1") ? "citizen" : "resident");
      }),
    );
  });

  it("rejects every single-digit change of a valid identifier (check digit)", () => {
    fc.assert(
      fc.property(body9, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), (body, pos, delta) => {
        const id = body + nationalIdCheckDigit(body);
        const digits = id.split("");
        digits[pos] = String((Number(digits[pos]) + delta) % 10);
        const result = checkNationalId(digits.join(""));
        return !result.valid && result.problem === "check-digit";
      }),
    );
  });

  it("explains why an identifier is invalid, in English and Arabic", () => {
    const cases: [string, string][] = [
      ["", "empty"],
      ["   ", "empty"],
      ["10000 0001", "non-digit"],
      ["١٠٠٠٠٠٠٠٠١", "non-digit"],
      ["123456789", "length"],
      ["12345678901", "length"],
      ["3048573628", "first-digit"],
      ["0048573628", "first-digit"],
      ["1048573627", "check-digit"],
    ];
    for (const [input, problem] of cases) {
      const result = checkNationalId(input);
      expect(result.valid, input).toBe(false);
      if (!result.valid) {
        expect(result.problem, input).toBe(problem);
        expect(result.message.en.length).toBeGreaterThan(5);
        expect(result.message.ar).toMatch(/[\u0600-\u06FF]/);
      }
    }
    expect(checkNationalId(" 1048573628 ")).toMatchObject({ valid: true, value: "1048573628" });
  });

  it("accepts the reserved sandbox range only when asked to", () => {
    expect(SANDBOX_TEST_ID_RANGE).toEqual({ first: "1000000000", last: "1000000099" });
    for (const id of ["1000000001", "1000000002", "1000000003"]) {
      expect(isValidNationalId(id)).toBe(false);
      expect(checkNationalId(id, { allowSandboxTestIds: true })).toMatchObject({ valid: true, sandboxTestId: true });
    }
    expect(isSandboxTestId("1000000099")).toBe(true);
    expect(isSandboxTestId("1000000100")).toBe(false);
    expect(isValidNationalId("1000000100", { allowSandboxTestIds: true })).toBe(false);
    expect(isValidNationalId("1000000008")).toBe(true); // a real check digit inside the range is valid anyway
  });

  it("the seeded realistic identifiers pass the check digit", () => {
    for (const id of ["1048573628", "2087654311", "1122334459"]) expect(isValidNationalId(id)).toBe(true);
  });
});
