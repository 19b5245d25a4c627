import { z } from "zod";

/** Administrators: an insurer's names (both languages), platform id, licence, active flag and filing windows. */
export const insurerSchema = z.object({
  id: z.string().trim().regex(/^[A-Za-z0-9\-.]{1,64}$/, "idInvalid"),
  nameEn: z.string().trim().min(1, "required").max(200),
  nameAr: z.string().trim().min(1, "required").max(200),
  license: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9\-._]*$/, "licenseInvalid")
    .transform((v) => (v === "" ? null : v)),
  active: z.boolean(),
  submissionDays: z.coerce.number().int("daysInvalid").min(1, "daysInvalid").max(3650, "daysInvalid"),
  resubmissionDays: z.coerce.number().int("daysInvalid").min(1, "daysInvalid").max(3650, "daysInvalid"),
});
export type InsurerFormInput = z.input<typeof insurerSchema>;
