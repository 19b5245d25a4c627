import { z } from "zod";
import { nationalIdSchema } from "./schemas";
import { GENDERS } from "./genders";

/** The "register a newborn" form's inputs (docs/decisions/110); messages are keys under `patients.errors`. */

/** The birth weight as typed (kilograms, "3.2" or "3,2"); a number, or undefined when it is not one. */
export const kilogramsOf = (typed: string): number | undefined => (/^\d{1,5}([.,]\d{1,3})?$/.test(typed.trim()) ? Number(typed.trim().replace(",", ".")) : undefined);

const kilograms = z
  .string()
  .trim()
  .min(1, "birthWeightRequired")
  .refine((v) => kilogramsOf(v) !== undefined, "birthWeightInvalid")
  // A number above 10 is grams typed into the kilogram field (the exchange takes kilograms, BV-00509).
  .refine((v) => (kilogramsOf(v) ?? 0) <= 10, "birthWeightGrams")
  .refine((v) => (kilogramsOf(v) ?? 1) >= 0.2, "birthWeightInvalid");

const day = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, "birthDateInvalid").refine((v) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}, "birthDateInvalid");

/** The "register a newborn" form, parsed in the browser and again on the server. */
export function registerNewbornSchema(options: { allowSandboxTestIds: boolean }) {
  return z.object({
    motherId: z.uuid("patientRequired"),
    nationalId: nationalIdSchema(options),
    givenName: z.string().trim().min(1, "givenNameRequired").max(80, "nameTooLong"),
    familyName: z.string().trim().min(1, "familyNameRequired").max(80, "nameTooLong"),
    birthDate: day.refine((v) => v <= new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), "birthDateFuture"),
    birthTime: z.string().trim().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "birthTimeInvalid"),
    gender: z.enum(GENDERS, { error: "genderRequired" }),
    birthWeightKg: kilograms,
  });
}
export type RegisterNewbornInput = z.infer<ReturnType<typeof registerNewbornSchema>>;

