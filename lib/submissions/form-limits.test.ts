import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { CLAIM_LIMITS, FORM_CLAIM_LIMITS } from "@/lib/fhir/browser";
import ar from "@/lib/i18n/messages/ar.json";
import en from "@/lib/i18n/messages/en.json";
import { submissionFormSchema } from "./form-schema";

/* The staff form's caps come from lib/fhir's one place (docs/decisions/093), and its field errors say the number in both languages. */

const line = { system: "", code: "99213", servicedDate: "2026-11-20", quantity: "1", unitPrice: "10" };
const form = (items: number, diagnoses = 1) => ({
  use: "claim",
  patientId: "0b6c3a36-3e76-4c1a-9a4c-0d6a1f3e2b11",
  coverageId: "6f1f7a2e-8c2b-4d5e-9a51-3c1b7e0d9f22",
  diagnoses: Array.from({ length: diagnoses }, (_, i) => `J0${i % 10}.${Math.floor(i / 10)}`),
  procedures: [],
  items: Array.from({ length: items }, () => line),
  attachmentIds: [],
});

describe("the staff form's size caps", () => {
  it(`refuses line ${FORM_CLAIM_LIMITS.lines + 1} and diagnosis ${FORM_CLAIM_LIMITS.codes + 1} with a field error, within the API's limits`, () => {
    expect(FORM_CLAIM_LIMITS.lines).toBeLessThanOrEqual(CLAIM_LIMITS.lines);
    const lines = submissionFormSchema.safeParse(form(FORM_CLAIM_LIMITS.lines + 1));
    expect(lines.success).toBe(false);
    expect(lines.error!.issues).toContainEqual(expect.objectContaining({ path: ["items"], message: "tooManyItems" }));
    const codes = submissionFormSchema.safeParse(form(1, FORM_CLAIM_LIMITS.codes + 1));
    expect(codes.error!.issues).toContainEqual(expect.objectContaining({ path: ["diagnoses"], message: "tooManyCodes" }));
    const atCap = submissionFormSchema.safeParse(form(FORM_CLAIM_LIMITS.lines));
    expect(atCap.error?.issues.some((i) => i.message === "tooManyItems") ?? false).toBe(false);
  });

  it("words the caps in English and Arabic with the numbers from lib/fhir", () => {
    const values = { lines: FORM_CLAIM_LIMITS.lines, codes: FORM_CLAIM_LIMITS.codes };
    const tEn = createTranslator({ locale: "en", messages: en, namespace: "authorizations.errors" });
    const tAr = createTranslator({ locale: "ar", messages: ar, namespace: "authorizations.errors" });
    expect(tEn("tooManyItems", values)).toBe(`At most ${FORM_CLAIM_LIMITS.lines} services.`);
    expect(tEn("tooManyCodes", values)).toBe(`At most ${FORM_CLAIM_LIMITS.codes} codes.`);
    expect(tAr("tooManyItems", values)).toContain(String(FORM_CLAIM_LIMITS.lines));
    expect(tAr("tooManyCodes", values)).toContain(String(FORM_CLAIM_LIMITS.codes));
  });
});
