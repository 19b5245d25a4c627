/**
 * Saudi-style national identifiers: 10 digits; the first digit is 1 for citizens (national ID)
 * and 2 for residents (Iqama); the last digit is a Luhn (mod 10) check digit over the first nine.
 *
 * The sandbox publishes a reserved block of test identities that are exempt from the check digit
 * (docs/decisions/010-sandbox-test-identifiers.md). They are accepted only when the caller says
 * the environment is the sandbox: production validation must pass `allowSandboxTestIds: false`.
 */

/** First and last identifier of the reserved sandbox test range (inclusive). */
export const SANDBOX_TEST_ID_RANGE = { first: "1000000000", last: "1000000099" } as const;

export type NationalIdKind = "citizen" | "resident";

export type NationalIdProblem = "empty" | "non-digit" | "length" | "first-digit" | "check-digit";

export interface NationalIdOptions {
  /** Accept the reserved sandbox test range without a check digit. Default false. */
  allowSandboxTestIds?: boolean;
}

export type NationalIdResult =
  | { valid: true; value: string; kind: NationalIdKind; sandboxTestId: boolean }
  | { valid: false; value: string; problem: NationalIdProblem; message: NationalIdMessage };

export interface NationalIdMessage {
  en: string;
  ar: string;
}

const MESSAGES: Record<NationalIdProblem, NationalIdMessage> = {
  empty: { en: "Enter the national ID or Iqama number.", ar: "أدخل رقم الهوية الوطنية أو الإقامة." },
  "non-digit": { en: "Use digits only (0–9).", ar: "استخدم الأرقام فقط (0–9)." },
  length: { en: "The number must have exactly 10 digits.", ar: "يجب أن يتكون الرقم من 10 أرقام بالضبط." },
  "first-digit": {
    en: "The number must start with 1 (citizen) or 2 (resident).",
    ar: "يجب أن يبدأ الرقم بـ 1 (مواطن) أو 2 (مقيم).",
  },
  "check-digit": {
    en: "The number is not valid (check digit mismatch). Check it for a typing mistake.",
    ar: "الرقم غير صحيح (رقم التحقق غير مطابق). تأكد من عدم وجود خطأ في الكتابة.",
  },
};

/** Luhn sum over all digits (the rightmost being the check digit); valid when ≡ 0 mod 10. */
function luhnSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum;
}

/** The check digit that completes a 9-digit body. */
export function nationalIdCheckDigit(body9: string): number {
  if (!/^\d{9}$/.test(body9)) throw new Error("nationalIdCheckDigit expects exactly 9 digits");
  return (10 - (luhnSum(`${body9}0`) % 10)) % 10;
}

export function isSandboxTestId(value: string): boolean {
  return /^\d{10}$/.test(value) && value >= SANDBOX_TEST_ID_RANGE.first && value <= SANDBOX_TEST_ID_RANGE.last;
}

/** Explains whether and why an identifier is invalid. Trims surrounding whitespace first. */
export function checkNationalId(input: string, options: NationalIdOptions = {}): NationalIdResult {
  const value = input.trim();
  const fail = (problem: NationalIdProblem): NationalIdResult => ({
    valid: false,
    value,
    problem,
    message: MESSAGES[problem],
  });
  if (value.length === 0) return fail("empty");
  if (!/^\d+$/.test(value)) return fail("non-digit");
  if (value.length !== 10) return fail("length");
  const first = value[0];
  if (first !== "1" && first !== "2") return fail("first-digit");
  const kind: NationalIdKind = first === "1" ? "citizen" : "resident";
  if (options.allowSandboxTestIds && isSandboxTestId(value)) {
    return { valid: true, value, kind, sandboxTestId: true };
  }
  if (luhnSum(value) % 10 !== 0) return fail("check-digit");
  return { valid: true, value, kind, sandboxTestId: false };
}

export function isValidNationalId(input: string, options: NationalIdOptions = {}): boolean {
  return checkNationalId(input, options).valid;
}
