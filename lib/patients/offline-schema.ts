import { z } from "zod";

/**
 * An eligibility the insurer gave while the exchange could not be reached (docs/decisions/111):
 * its reference and the day it was given. Messages are keys under `patients.errors`.
 */
export const recordOfflineEligibilitySchema = z.object({
  patientId: z.uuid("patientRequired"),
  coverageId: z.uuid("coverageUnknown"),
  reference: z.string().trim().min(1, "offlineReferenceRequired").max(64, "offlineReferenceInvalid").regex(/^[A-Za-z0-9\-_./]+$/, "offlineReferenceInvalid"),
  givenOn: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "offlineDateRequired")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, "offlineDateRequired")
    .refine((v) => v <= new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), "offlineDateFuture"),
});
export type RecordOfflineEligibilityInput = z.infer<typeof recordOfflineEligibilitySchema>;

/** A correction (new reference and day) or the removal of an offline eligibility recorded by mistake (decision 120). */
export const changeOfflineEligibilitySchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("remove"), id: z.uuid("failed"), patientId: z.uuid("patientRequired") }),
  recordOfflineEligibilitySchema.pick({ patientId: true, reference: true, givenOn: true }).extend({ action: z.literal("correct"), id: z.uuid("failed") }),
]);
export type ChangeOfflineEligibilityInput = z.infer<typeof changeOfflineEligibilitySchema>;
