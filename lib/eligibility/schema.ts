import { z } from "zod";
import { BENEFIT_CATEGORIES, FORM_ELIGIBILITY_PURPOSES, isBenefitCategoryCode, type BenefitCategoryCode } from "@/lib/fhir/browser";

/**
 * The eligibility form's input: parsed by the browser (zodResolver) and again by the server
 * action. Messages are catalogue keys under `eligibility.errors`.
 */
export const eligibilityFormSchema = z.object({
  patientId: z.uuid("patientRequired"),
  /**
   * The coverage asked about; empty: a discovery (guide 7.1, Table 36) — the insurer(s) report the
   * coverages they hold for the patient's identifier.
   */
  coverageId: z
    .string()
    .refine((v) => v === "" || z.uuid().safeParse(v).success, "coverageRequired")
    .default(""),
  /** A discovery's insurer; empty: every insurer the clinic exchanges with, one after the other. */
  insurerId: z.string().trim().max(64, "insurerUnknown").regex(/^[A-Za-z0-9\-_.]*$/, "insurerUnknown").default(""),
  /** The patient comes on a transfer of care (guide 7.3 step 3): the request carries extension-transfer. */
  transfer: z.boolean().default(false),
  servicedDate: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "servicedDateInvalid")
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= "2000-01-01" && v <= "2100-12-31";
    }, "servicedDateInvalid"),
  purposes: z.array(z.enum(FORM_ELIGIBILITY_PURPOSES)).min(1, "purposeRequired").max(FORM_ELIGIBILITY_PURPOSES.length),
  /** Empty: every category of the plan. */
  categories: z
    .array(z.string().refine(isBenefitCategoryCode, "categoryInvalid"))
    .max(Object.keys(BENEFIT_CATEGORIES).length)
    .transform((codes) => [...new Set(codes)] as BenefitCategoryCode[]),
});

export type EligibilityFormInput = z.input<typeof eligibilityFormSchema>;
export type EligibilityFormValues = z.output<typeof eligibilityFormSchema>;
export type EligibilityField = keyof EligibilityFormInput;
