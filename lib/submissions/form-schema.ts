import { z } from "zod";
import { MAX_FILES } from "@/lib/attachments/browser";
import { parseAmountMinor, parseQuantity } from "./form-money";

/**
 * The prior-authorization / claim form: ONE schema, parsed by the browser (zodResolver) and again
 * by the server actions. Messages are catalogue keys under `authorizations.errors`. Quantities and
 * prices stay strings here so that money never passes through a float.
 */
export const SUBMISSION_USES = ["preauthorization", "claim"] as const;
export type SubmissionUse = (typeof SUBMISSION_USES)[number];

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "dateInvalid")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= "2000-01-01" && v <= "2100-12-31";
  }, "dateInvalid");

/**
 * A code as the form can check it: one token. Whether the catalogue holds it (the clinic's
 * imported codes, docs/decisions/086) is the server's check on submit (form-service), not the
 * browser's: the catalogue is too large to ship.
 */
const codeShape = (message: string) => z.string().trim().max(64, message).regex(/^\S+$/, message);

export const itemSchema = z.object({
  code: z.string().trim().min(1, "serviceRequired").pipe(codeShape("serviceUnknown")),
  servicedDate: day,
  quantity: z.string().refine((v) => parseQuantity(v) !== undefined, "quantityInvalid"),
  unitPrice: z.string().refine((v) => parseAmountMinor(v) !== undefined, "priceInvalid"),
});

export const submissionFormSchema = z.object({
  use: z.enum(SUBMISSION_USES),
  /** The clinic's patient (internal UUID). */
  patientId: z.uuid("patientRequired"),
  coverageId: z.uuid("coverageRequired"),
  diagnoses: z
    .array(codeShape("diagnosisUnknown"))
    .min(1, "diagnosisRequired")
    .max(12, "tooManyCodes")
    .refine((codes) => new Set(codes).size === codes.length, "duplicateCode"),
  procedures: z
    .array(codeShape("procedureUnknown"))
    .max(12, "tooManyCodes")
    .refine((codes) => new Set(codes).size === codes.length, "duplicateCode"),
  items: z.array(itemSchema).min(1, "itemRequired").max(50, "tooManyItems"),
  attachmentIds: z.array(z.uuid()).max(MAX_FILES, "tooManyFiles"),
  /** Claims made from a prior authorization carry its reference. */
  preAuthRef: z.string().trim().max(64).optional(),
});

export type SubmissionFormInput = z.input<typeof submissionFormSchema>;
export type SubmissionFormValues = z.output<typeof submissionFormSchema>;
export type SubmissionItemInput = z.input<typeof itemSchema>;

/**
 * A draft may be saved at any time: only the patient is needed (a submission belongs to one);
 * everything else is kept as typed and checked when the draft is submitted.
 */
export const draftFormSchema = z.object({
  use: z.enum(SUBMISSION_USES),
  patientId: z.uuid("patientRequired"),
  coverageId: z.string().max(64).default(""),
  diagnoses: z.array(z.string().max(16)).max(12, "tooManyCodes").default([]),
  procedures: z.array(z.string().max(16)).max(12, "tooManyCodes").default([]),
  items: z
    .array(
      z.object({
        code: z.string().max(16).default(""),
        servicedDate: z.string().max(10).default(""),
        quantity: z.string().max(8).default(""),
        unitPrice: z.string().max(20).default(""),
      }),
    )
    .max(50, "tooManyItems")
    .default([]),
  attachmentIds: z.array(z.uuid()).max(MAX_FILES, "tooManyFiles").default([]),
  preAuthRef: z.string().trim().max(64).optional(),
});
export type DraftFormValues = z.output<typeof draftFormSchema>;
