import { z } from "zod";
import {
  CLAIM_SUBTYPES,
  CLAIM_TYPES,
  DIAGNOSIS_ON_ADMISSION_CODES,
  ESTIMATED_STAY_DAYS,
  FORM_CLAIM_LIMITS,
  SUBTYPES_BY_CLAIM_TYPE,
  isFdiToothCode,
  requiredSupportingInfo,
  requiresOnAdmission,
  type ClaimSubtype,
  type ClaimType,
} from "@/lib/fhir/browser";
import { MAX_FILES } from "@/lib/attachments/browser";
import { PHARMACIST_SELECTION_REASON_CODES, PHARMACIST_SUBSTITUTE_CODES } from "@/lib/fhir/browser";
import { parseAmountMinor, parseQuantity } from "./form-money";
import { CPT_SYSTEM, itemSystemsFor } from "./care-setting";
import { clinicalSchema } from "./clinical-schema";

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

/** A code of one of the exchange's licensed systems (imported catalogues): its shape only. */
const EXCHANGE_CODE = /^[A-Za-z0-9][A-Za-z0-9.\-]{0,39}$/;

const optionalAmount = z
  .string()
  .default("")
  .refine((v) => v.trim() === "" || parseAmountMinor(v) !== undefined, "priceInvalid");

export const itemSchema = z.object({
  /** Code system URL of `code`; empty: CPT (forms saved before care settings). */
  system: z.string().max(200).default(""),
  code: z.string().trim().min(1, "serviceRequired").pipe(codeShape("serviceUnknown")),
  servicedDate: day,
  quantity: z.string().refine((v) => parseQuantity(v) !== undefined, "quantityInvalid"),
  unitPrice: z.string().refine((v) => parseAmountMinor(v) !== undefined, "priceInvalid"),
  /** Oral: the FDI tooth number the line treats. */
  tooth: z.string().trim().max(2).default(""),
  /** VAT on the line and the patient's share of it (amounts; optional). */
  tax: optionalAmount,
  patientShare: optionalAmount,
  /** The line is a package (its price covers what the package includes). */
  package: z.boolean().default(false),
  /** The line is maternity care (the exchange's Minimum Data Set, docs/decisions/103). */
  maternity: z.boolean().default(false),
  /**
   * A change of an authorization (decision 114): the service was already provided, so its date goes
   * in `item.servicedPeriod.start` (guide 7.3.1, Table 37). Ignored on anything else.
   */
  performed: z.boolean().default(false),
});

const SHORT_TEXT = z.string().trim().max(500).default("");
const OPTIONAL_ID = z
  .string()
  .trim()
  .max(64)
  .default("")
  .refine((v) => v === "" || /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/.test(v), "identifierInvalid");
/** YYYY-MM-DDTHH:mm (a datetime-local input) or a date. */
const MOMENT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?)?$/;
const optionalMoment = z
  .string()
  .trim()
  .default("")
  .refine((v) => v === "" || (MOMENT.test(v) && !Number.isNaN(new Date(v.length === 10 ? `${v}T00:00:00Z` : `${v}Z`).getTime())), "dateInvalid");

/**
 * What a care setting needs beyond the common claim (docs/decisions/083): its subtype, a care team
 * (every setting but pharmacy), the chief complaint (every setting the exchange asks it of), days
 * of supply (pharmacy), the vision prescription (vision), admission (inpatient and emergency), an
 * inpatient prior authorization's estimated length of stay and, for an inpatient stay, whether
 * each diagnosis was present on admission (lib/fhir/nphies `requiredSupportingInfo`,
 * `requiresOnAdmission`), a valid tooth where one is named, and item codes of the setting's systems.
 * Field errors by path.
 */
function careSettingIssues(values: {
  use: SubmissionUse;
  claimType: ClaimType;
  subtype: ClaimSubtype;
  careTeam: readonly string[];
  chiefComplaint: string;
  daysSupply: string;
  visionPrescription: string;
  admission: string;
  discharge: string;
  estimatedStay: string;
  diagnoses: readonly string[];
  onAdmission: Readonly<Record<string, string>>;
  items: readonly { system: string; code: string; tooth: string }[];
}): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const type = values.claimType;
  if (!SUBTYPES_BY_CLAIM_TYPE[type].includes(values.subtype)) issues.push({ path: ["subtype"], message: "subtypeNotAllowed" });
  if (type !== "pharmacy" && values.careTeam.length === 0) issues.push({ path: ["careTeam"], message: "careTeamRequired" });
  const needs = requiredSupportingInfo(type, values.subtype, values.use);
  if (needs.includes("chief-complaint") && values.chiefComplaint === "") issues.push({ path: ["chiefComplaint"], message: "chiefComplaintRequired" });
  if (needs.includes("days-supply") && values.daysSupply === "") issues.push({ path: ["daysSupply"], message: "daysSupplyRequired" });
  if (needs.includes("estimated-Length-of-Stay") && values.estimatedStay === "") issues.push({ path: ["estimatedStay"], message: "estimatedStayRequired" });
  if (requiresOnAdmission(type, values.subtype) && values.diagnoses.some((code) => !Object.hasOwn(values.onAdmission, code))) {
    issues.push({ path: ["onAdmission"], message: "onAdmissionRequired" });
  }
  if (type === "vision" && values.visionPrescription === "") issues.push({ path: ["visionPrescription"], message: "visionPrescriptionRequired" });
  if ((values.subtype === "ip" || values.subtype === "emr") && values.admission === "") issues.push({ path: ["admission"], message: "admissionRequired" });
  if (values.admission && values.discharge && values.discharge < values.admission) issues.push({ path: ["discharge"], message: "dischargeBeforeAdmission" });
  const systems = itemSystemsFor(type);
  values.items.forEach((item, i) => {
    const system = item.system || CPT_SYSTEM;
    if (!systems.includes(system)) issues.push({ path: ["items", i, "system"], message: "systemNotAllowed" });
    else if (item.code !== "" && system !== CPT_SYSTEM && !EXCHANGE_CODE.test(item.code)) issues.push({ path: ["items", i, "code"], message: "serviceUnknown" });
    // The tooth is named where there is one (guide v2.7 requires no bodySite on oral lines: an examination has none).
    if (item.tooth !== "" && !isFdiToothCode(item.tooth)) issues.push({ path: ["items", i, "tooth"], message: "toothInvalid" });
  });
  return issues;
}

const careSettingFields = {
  /** The care setting (claim-type); forms saved before care settings read as professional outpatient. */
  claimType: z.enum(CLAIM_TYPES).default("professional"),
  subtype: z.enum(CLAIM_SUBTYPES).default("op"),
  /** Practitioner ids (lib/facilities), the first the primary. */
  careTeam: z.array(z.uuid("practitionerUnknown")).max(10, "tooManyPractitioners").default([]),
  chiefComplaint: SHORT_TEXT,
  /** Pharmacy: days the dispensed supply lasts. */
  daysSupply: z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 365), "daysSupplyInvalid"),
  /** Vision: the prescription's number (its VisionPrescription identifier). */
  visionPrescription: OPTIONAL_ID,
  /** Inpatient / emergency: admission and discharge. */
  admission: optionalMoment,
  discharge: optionalMoment,
  /** An inpatient prior authorization: the stay's estimated length in whole days (BV-00802). */
  estimatedStay: z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) >= ESTIMATED_STAY_DAYS.min && Number(v) <= ESTIMATED_STAY_DAYS.max), "estimatedStayInvalid"),
  /**
   * An inpatient stay: whether each diagnosis was present on admission (y, n, u), by its ICD-10-AM
   * code — keyed by code, so reordering or removing diagnoses keeps each answer with its own (BV-00027).
   */
  onAdmission: z.record(z.string().max(16), z.enum(DIAGNOSIS_ON_ADMISSION_CODES)).default({}),
  /** The clinic's episode of care the submission belongs to. */
  episodeId: OPTIONAL_ID,
  /** The visit's clinical facts (Minimum Data Set, docs/decisions/103; lib/submissions/clinical-schema.ts). */
  clinical: clinicalSchema.default(clinicalSchema.parse({})),
  // prescription: a pharmacy claim dispensing a verified prescription (docs/decisions/116): the
  // payer's reference of the verification, and each line the pharmacist dispensed instead of the
  // prescribed medicine (what was prescribed, why, what the substitute is).
  prescriptionRef: z.string().trim().max(64).default(""),
  substitutions: z
    .array(
      z.object({
        line: z.coerce.number().int().min(0).max(FORM_CLAIM_LIMITS.lines),
        prescribed: z.string().trim().max(300).regex(/^[^|]+\|[^|]+$/, "prescribedRequired"),
        reason: z.enum(PHARMACIST_SELECTION_REASON_CODES as [string, ...string[]], "selectionReasonRequired"),
        substitute: z.enum(PHARMACIST_SUBSTITUTE_CODES as [string, ...string[]], "substituteRequired"),
      }),
    )
    .max(FORM_CLAIM_LIMITS.lines)
    .default([]),
};

/** The reference and the day (YYYY-MM-DD) of an offline authorization; both empty when there is none. */
const offlineAuthorizationShape = z
  .object({ reference: z.string().trim().max(64, "offlineReferenceInvalid").regex(/^[A-Za-z0-9\-_./]*$/, "offlineReferenceInvalid").default(""), date: z.string().trim().max(10).default("") })
  .default({ reference: "", date: "" });

/**
 * The receiving facility's referral (guide 7.3 step 4–5, decision 120): the referring provider's
 * name (Claim.referral.display), the transfer authorization the payer gave (its number, sent as
 * preAuthRef) and its date (extension-authorization-offline-date). All empty when the visit is no referral.
 */
const referralShape = z
  .object({
    active: z.boolean().default(false),
    provider: z.string().trim().max(200, "referralProviderInvalid").default(""),
    reference: z.string().trim().max(64, "referralReferenceInvalid").regex(/^[A-Za-z0-9\-_./]*$/, "referralReferenceInvalid").default(""),
    date: z.string().trim().max(10).default(""),
  })
  .default({ active: false, provider: "", reference: "", date: "" });

/** The referral's field errors (decision 120): a referral names its provider and transfer authorization; a claim also the authorization's date. */
export function referralIssues(values: { use: SubmissionUse; transfer: boolean; referral: { active: boolean; provider: string; reference: string; date: string }; offlineAuthorization: { reference: string; date: string } }, today = new Date().toISOString().slice(0, 10)): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  // Table 37: the flag asks the payer to transfer the services to another provider — a prior authorization's.
  if (values.transfer && values.use !== "preauthorization") issues.push({ path: ["transfer"], message: "transferOnlyAuthorization" });
  const r = values.referral;
  if (!r.active) return issues;
  if (!r.provider) issues.push({ path: ["referral", "provider"], message: "referralProviderRequired" });
  if (!r.reference) issues.push({ path: ["referral", "reference"], message: "referralReferenceRequired" });
  if (r.date) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r.date) || Number.isNaN(Date.parse(`${r.date}T00:00:00Z`))) issues.push({ path: ["referral", "date"], message: "referralDateRequired" });
    else if (r.date > today) issues.push({ path: ["referral", "date"], message: "referralDateFuture" });
  } else if (values.use === "claim") issues.push({ path: ["referral", "date"], message: "referralDateRequired" });
  // The transfer authorization is the offline authorization of the guide's 7.3: one date extension, one of the two.
  if (values.offlineAuthorization.reference || values.offlineAuthorization.date) issues.push({ path: ["referral", "reference"], message: "referralWithOffline" });
  if (values.transfer) issues.push({ path: ["transfer"], message: "transferWithReferral" });
  return issues;
}

export const submissionFormSchema = z
  .object({
    use: z.enum(SUBMISSION_USES),
    /** The clinic's patient (internal UUID). */
    patientId: z.uuid("patientRequired"),
    coverageId: z.uuid("coverageRequired"),
    ...careSettingFields,
    diagnoses: z
      .array(codeShape("diagnosisUnknown"))
      .min(1, "diagnosisRequired")
      .max(FORM_CLAIM_LIMITS.codes, "tooManyCodes")
      .refine((codes) => new Set(codes).size === codes.length, "duplicateCode"),
    procedures: z
      .array(codeShape("procedureUnknown"))
      .max(FORM_CLAIM_LIMITS.codes, "tooManyCodes")
      .refine((codes) => new Set(codes).size === codes.length, "duplicateCode"),
    items: z.array(itemSchema).min(1, "itemRequired").max(FORM_CLAIM_LIMITS.lines, "tooManyItems"),
    attachmentIds: z.array(z.uuid()).max(MAX_FILES, "tooManyFiles"),
    /** Claims made from a prior authorization carry its reference. */
    preAuthRef: z.string().trim().max(64).optional(),
    // A change of an authorization (decision 114): why the services are asked again — sent as supporting
    // information to justify the medical necessity (guide 7.3.1, Table 37, "Partially Approved or Rejected").
    changeJustification: z.string().trim().max(4000, "changeJustificationLong").default(""),
    // offline: an authorization the insurer gave while the exchange could not be reached (docs/decisions/111)
    offlineAuthorization: offlineAuthorizationShape,
    // transfer of care (guide 7.3, decision 120): the referring clinic's flag, the receiving facility's referral
    transfer: z.boolean().default(false),
    referral: referralShape,
  })
  .superRefine((values, ctx) => {
    for (const issue of careSettingIssues(values)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    // Tomorrow in UTC: the clinic's day may be ahead of the server's.
    for (const issue of referralIssues(values, new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    const offline = values.offlineAuthorization;
    if (offline.reference || offline.date) {
      if (!offline.reference) ctx.addIssue({ code: "custom", path: ["offlineAuthorization", "reference"], message: "offlineReferenceRequired" });
      if (!/^\d{4}-\d{2}-\d{2}$/.test(offline.date) || Number.isNaN(Date.parse(`${offline.date}T00:00:00Z`))) ctx.addIssue({ code: "custom", path: ["offlineAuthorization", "date"], message: "offlineDateRequired" });
      else if (offline.date > new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)) ctx.addIssue({ code: "custom", path: ["offlineAuthorization", "date"], message: "offlineDateFuture" });
    }
  });

export type SubmissionFormInput = z.input<typeof submissionFormSchema>;
export type SubmissionFormValues = z.output<typeof submissionFormSchema>;
export type SubmissionItemInput = z.input<typeof itemSchema>;
export type SubmissionItemValues = z.output<typeof itemSchema>;

/**
 * A draft may be saved at any time: only the patient is needed (a submission belongs to one);
 * everything else is kept as typed and checked when the draft is submitted.
 */
export const draftFormSchema = z.object({
  use: z.enum(SUBMISSION_USES),
  patientId: z.uuid("patientRequired"),
  coverageId: z.string().max(64).default(""),
  ...careSettingFields,
  // A draft keeps what was typed: only the shape is checked, never the care setting's rules.
  careTeam: z.array(z.string().max(64)).max(10, "tooManyPractitioners").default([]),
  visionPrescription: z.string().trim().max(64).default(""),
  episodeId: z.string().trim().max(64).default(""),
  admission: z.string().trim().max(19).default(""),
  discharge: z.string().trim().max(19).default(""),
  daysSupply: z.string().trim().max(3).default(""),
  estimatedStay: z.string().trim().max(3).default(""),
  // A draft keeps each answer it can read; one it cannot is asked again.
  onAdmission: z.record(z.string().max(16), z.enum(DIAGNOSIS_ON_ADMISSION_CODES)).catch({}).default({}),
  clinical: clinicalSchema.catch(clinicalSchema.parse({})).default(clinicalSchema.parse({})),
  diagnoses: z.array(z.string().max(16)).max(FORM_CLAIM_LIMITS.codes, "tooManyCodes").default([]),
  procedures: z.array(z.string().max(16)).max(FORM_CLAIM_LIMITS.codes, "tooManyCodes").default([]),
  items: z
    .array(
      z.object({
        system: z.string().max(200).default(""),
        code: z.string().max(40).default(""),
        servicedDate: z.string().max(10).default(""),
        quantity: z.string().max(8).default(""),
        unitPrice: z.string().max(20).default(""),
        tooth: z.string().max(2).default(""),
        tax: z.string().max(20).default(""),
        patientShare: z.string().max(20).default(""),
        package: z.boolean().default(false),
        maternity: z.boolean().default(false),
        performed: z.boolean().catch(false).default(false),
      }),
    )
    .max(FORM_CLAIM_LIMITS.lines, "tooManyItems")
    .default([]),
  attachmentIds: z.array(z.uuid()).max(MAX_FILES, "tooManyFiles").default([]),
  preAuthRef: z.string().trim().max(64).optional(),
  changeJustification: z.string().max(4000).catch("").default(""),
  offlineAuthorization: z.object({ reference: z.string().trim().max(64).default(""), date: z.string().trim().max(10).default("") }).catch({ reference: "", date: "" }).default({ reference: "", date: "" }),
  transfer: z.boolean().catch(false).default(false),
  referral: z
    .object({ active: z.boolean().default(false), provider: z.string().trim().max(200).default(""), reference: z.string().trim().max(64).default(""), date: z.string().trim().max(10).default("") })
    .catch({ active: false, provider: "", reference: "", date: "" })
    .default({ active: false, provider: "", reference: "", date: "" }),
});
export type DraftFormValues = z.output<typeof draftFormSchema>;
