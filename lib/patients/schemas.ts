import { z } from "zod";
import { checkNationalId, type NationalIdProblem } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";
import { GENDERS } from "./genders";

export { GENDERS };

/**
 * The front desk's inputs, parsed by the browser form (zodResolver) and again on the server.
 * Messages are catalogue keys under `patients.errors`, translated where they are shown.
 */

const NATIONAL_ID_KEYS: Record<NationalIdProblem, string> = {
  empty: "nationalIdEmpty",
  "non-digit": "nationalIdNonDigit",
  length: "nationalIdLength",
  "first-digit": "nationalIdFirstDigit",
  "check-digit": "nationalIdCheckDigit",
};

/** National ID / Iqama with format and check digit; the sandbox test range only when asked. */
export function nationalIdSchema(options: { allowSandboxTestIds: boolean }) {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const result = checkNationalId(value, { allowSandboxTestIds: options.allowSandboxTestIds });
      if (!result.valid) ctx.addIssue({ code: "custom", message: NATIONAL_ID_KEYS[result.problem] });
    });
}

/**
 * Saudi mobile numbers: 05XXXXXXXX, 5XXXXXXXX, +9665XXXXXXXX or 009665XXXXXXXX, with spaces or
 * dashes allowed while typing. Returns the E.164 form (+9665XXXXXXXX) or undefined.
 */
export function normalizeSaudiMobile(input: string): string | undefined {
  const compact = input.replace(/[\s\-().]/g, "");
  const match = /^(?:\+966|00966|966|0)?(5\d{8})$/.exec(compact);
  return match ? `+966${match[1]}` : undefined;
}

/** +966512345678 → 051 234 5678 (how the front desk reads it back to the patient). */
export function formatSaudiMobile(e164: string): string {
  const m = /^\+966(5\d)(\d{3})(\d{4})$/.exec(e164);
  return m ? `0${m[1]} ${m[2]} ${m[3]}` : e164;
}

const name = (required: string) => z.string().trim().min(1, required).max(80, "nameTooLong");

/** YYYY-MM-DD that is a real day, not in the future and not before 1900. */
const birthDate = z
  .string()
  .trim()
  .min(1, "birthDateRequired")
  .regex(/^\d{4}-\d{2}-\d{2}$/, "birthDateInvalid")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, "birthDateInvalid")
  .refine((v) => v >= "1900-01-01", "birthDateInvalid")
  // A day ahead of UTC's today tolerates time zones east of UTC (the clinic's "today").
  .refine((v) => v <= new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), "birthDateFuture");

/** A code of one of the catalogue's lists, as typed: its shape here; its membership where the catalogue is read. */
const catalogueCode = (message: string) => z.string().trim().max(64, message).regex(/^$|^[A-Za-z0-9][A-Za-z0-9.\-/]*$/, message).default("");

export function registerPatientSchema(options: { allowSandboxTestIds: boolean }) {
  return z.object({
    nationalId: nationalIdSchema(options),
    givenName: name("givenNameRequired"),
    familyName: name("familyNameRequired"),
    birthDate,
    gender: z.enum(GENDERS, { error: "genderRequired" }),
    phone: z
      .string()
      .trim()
      .max(30, "phoneInvalid")
      .refine((v) => v === "" || normalizeSaudiMobile(v) !== undefined, "phoneInvalid"),
    /** v3-MaritalStatus (the exchange's Minimum Data Set sends Patient.maritalStatus, docs/decisions/103); "" not given. */
    maritalStatus: z
      .string()
      .trim()
      .default("")
      .refine((v) => v === "" || mds.MARITAL_STATUSES.some((m) => m.code === v), "maritalStatusInvalid"),
    /** Codes of the catalogue's occupation and religion lists (a clinic imports the exchange's; checked there, decision 118); "" not asked. */
    occupation: catalogueCode("occupationInvalid"),
    religion: catalogueCode("religionInvalid"),
  });
}
export type RegisterPatientInput = z.infer<ReturnType<typeof registerPatientSchema>>;

/** Editing a registered patient: the same fields and rules, and which patient. */
export function updatePatientSchema(options: { allowSandboxTestIds: boolean }) {
  return registerPatientSchema(options).extend({ id: z.uuid() });
}
export type UpdatePatientInput = z.infer<ReturnType<typeof updatePatientSchema>>;

/** An optional calendar day as typed in a date field: "" or a real YYYY-MM-DD from 2000 to 2100. */
export function isCardDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < "2000-01-01" || value > "2100-12-31") return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const cardDate = (message: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === "" || isCardDate(v), message)
    .default("");

/** The coverage form's fields without the cross-field check (to omit or extend; parse with addCoverageSchema). */
export const addCoverageFields = z.object({
  patientId: z.uuid("patientRequired"),
  insurerId: z.string().trim().min(1, "insurerRequired").max(64, "insurerRequired"),
  memberId: z
    .string()
    .trim()
    .min(1, "memberIdRequired")
    .max(40, "memberIdInvalid")
    .regex(/^[A-Za-z0-9][A-Za-z0-9\-/.]*$/, "memberIdInvalid"),
  /**
   * The exchange's coverage id, only when the insurer gave it (it is on no card): blank → the
   * portal fills one where the exchange identifies the coverage by its member number
   * (lib/patients/registry.ts `coverageRefFor`, docs/decisions/122).
   */
  coverageRef: z
    .string()
    .trim()
    .max(64, "coverageRefInvalid")
    // A FHIR id, as used in `Coverage/<id>`.
    .regex(/^[A-Za-z0-9\-.]{0,64}$/, "coverageRefInvalid")
    .default(""),
  /**
   * The payer's provider network and the coverage class from the card (Coverage.class); optional.
   * They choose the class and network prices of the payer's contract (docs/decisions/089).
   */
  network: z.string().trim().max(40, "networkInvalid").regex(/^[A-Za-z0-9\-_.]*$/, "networkInvalid").default(""),
  coverageClass: z.string().trim().max(40, "coverageClassInvalid").regex(/^[A-Za-z0-9\-_.]*$/, "coverageClassInvalid").default(""),
  /**
   * The card's expiry date as printed (YYYY-MM-DD, the last day it covers); "" not given. A real
   * day between 2000 and 2100; a past date is kept (an expired card is still the patient's record,
   * and the insurer decides), the forms warn of it (decision 126).
   */
  expiresOn: cardDate("expiresOnInvalid"),
  /**
   * The card's first day when one is known (a discovery answer's period start; the form asks
   * none): not stored, only checked — the expiry is not before it.
   */
  startsOn: cardDate("expiresOnInvalid").optional(),
});

/** The card's expiry is not before its start, when both are known (decision 126). */
export function expiryNotBeforeStart(v: { expiresOn?: string; startsOn?: string }, ctx: z.RefinementCtx): void {
  if (v.expiresOn && v.startsOn && v.expiresOn < v.startsOn) ctx.addIssue({ code: "custom", path: ["expiresOn"], message: "expiresBeforeStart" });
}

export const addCoverageSchema = addCoverageFields.superRefine(expiryNotBeforeStart);
export type AddCoverageInput = z.infer<typeof addCoverageSchema>;

export const patientSearchSchema = z.object({ q: z.string().trim().max(100).default("") });
