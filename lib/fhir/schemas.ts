import type {
  Bundle,
  Claim,
  ClaimResponse,
  CoverageEligibilityRequest,
  CoverageEligibilityResponse,
  Money,
  OperationOutcome,
  Resource,
} from "@medplum/fhirtypes";
import { z } from "zod";
import { CLAIM_LIMITS } from "./nphies/limits";

/**
 * zod schemas for the subset of FHIR R4 the platform exchanges (spec, "Resources and their fields").
 *
 * - Structure only: R4 cardinalities and the primitive formats. Platform business rules (which
 *   fields the platform insists on, which codes it knows) are checked by the platform itself and
 *   reported as ERR-00x; the portal's builders produce resources that satisfy them.
 * - Unknown members are stripped when parsing (`z.object`), so a newer platform field never breaks
 *   the portal; every schema's output is checked against `@medplum/fhirtypes` with `satisfies`.
 */

// ---- primitives -----------------------------------------------------------------------------

/** FHIR `date` as the platform uses it: full YYYY-MM-DD. */
export const fhirDate = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "expected a date YYYY-MM-DD");

/** FHIR `dateTime` with a time part and a zone (the platform sends UTC). A bare date is accepted too. */
export const fhirDateTime = z
  .string()
  .regex(
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?$/,
    "expected an ISO 8601 date-time",
  );

const positiveInt = z.number().int().positive();

// ---- data types ---------------------------------------------------------------------------------

export const CodingSchema = z.object({
  system: z.string().optional(),
  version: z.string().optional(),
  code: z.string().optional(),
  display: z.string().optional(),
});

export const CodeableConceptSchema = z.object({
  coding: z.array(CodingSchema).optional(),
  text: z.string().optional(),
});

export const IdentifierSchema = z.object({
  system: z.string().optional(),
  value: z.string().optional(),
});

/** A Reference as the spec defines it: `<ResourceType>/<id>`. */
export const ReferenceSchema = z.object({
  reference: z.string().regex(/^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/, "expected <ResourceType>/<id>"),
  display: z.string().optional(),
});

const currencyCode = z.string().regex(/^[A-Z]{3}$/, "expected an ISO 4217 code") as unknown as z.ZodType<
  NonNullable<Money["currency"]>
>;

export const MoneySchema = z.object({
  value: z.number().optional(),
  currency: currencyCode.optional(),
});

export const QuantitySchema = z.object({
  value: z.number().optional(),
  unit: z.string().optional(),
  system: z.string().optional(),
  code: z.string().optional(),
});

export const PeriodSchema = z.object({
  start: fhirDateTime.optional(),
  end: fhirDateTime.optional(),
});

export const AttachmentSchema = z.object({
  contentType: z.string().optional(),
  data: z.string().optional(),
  title: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  /** When the document was made; the portal sends the upload time. */
  creation: fhirDateTime.optional(),
});

/**
 * A Reference by `<ResourceType>/<id>`, an absolute URL or `urn:uuid:` (any R4 form: messages carry
 * them), or by identifier only (a practitioner by licence, a prescription by number).
 */
export const ReferenceOrIdentifierSchema = z
  .object({
    reference: z.string().min(1).max(1000).optional(),
    type: (z.string().regex(/^[A-Z][A-Za-z]+$/, "expected a resource type") as unknown as z.ZodType<Resource["resourceType"]>).optional(),
    identifier: IdentifierSchema.optional(),
    display: z.string().optional(),
  })
  .refine((r) => r.reference !== undefined || r.identifier?.value !== undefined, "expected a reference or an identifier");

export const ExtensionSchema = z.object({
  url: z.string(),
  valueCode: z.string().optional(),
  valueString: z.string().optional(),
  // The exchange's claim extensions (episode, encounter, package, tax, patient share: lib/fhir/nphies).
  valueBoolean: z.boolean().optional(),
  valueIdentifier: IdentifierSchema.optional(),
  valueReference: ReferenceOrIdentifierSchema.optional(),
  valueMoney: z.lazy(() => MoneySchema).optional(),
  valueCodeableConcept: CodeableConceptSchema.optional(),
  // The Minimum Data Set's Encounter extensions (triage date, emergency service start: docs/decisions/103).
  valueDateTime: z.lazy(() => fhirDateTime).optional(),
});

export const MetaSchema = z.object({
  versionId: z.string().optional(),
  lastUpdated: fhirDateTime.optional(),
  tag: z.array(CodingSchema).optional(),
});

const resourceBase = {
  id: z.string().optional(),
  meta: MetaSchema.optional(),
  extension: z.array(ExtensionSchema).optional(),
};

const resourceStatus = z.enum(["active", "cancelled", "draft", "entered-in-error"]);
const eligibilityPurpose = z.enum(["auth-requirements", "benefits", "discovery", "validation"]);
const processOutcome = z.enum(["queued", "complete", "error", "partial"]);

// ---- CoverageEligibilityRequest / Response ----------------------------------------------------------

export const CoverageEligibilityRequestSchema = z.object({
  resourceType: z.literal("CoverageEligibilityRequest"),
  ...resourceBase,
  identifier: z.array(IdentifierSchema).optional(),
  status: resourceStatus,
  purpose: z.array(eligibilityPurpose).min(1),
  patient: ReferenceSchema,
  servicedDate: fhirDate.optional(),
  created: fhirDateTime,
  provider: ReferenceSchema.optional(),
  insurer: ReferenceSchema,
  insurance: z.array(z.object({ focal: z.boolean().optional(), coverage: ReferenceSchema })).optional(),
  item: z
    .array(
      z.object({
        category: CodeableConceptSchema.optional(),
        productOrService: CodeableConceptSchema.optional(),
      }),
    )
    .optional(),
}) satisfies z.ZodType<CoverageEligibilityRequest>;
export type CoverageEligibilityRequestInput = z.infer<typeof CoverageEligibilityRequestSchema>;

export const EligibilityBenefitSchema = z.object({
  type: CodeableConceptSchema,
  allowedMoney: MoneySchema.optional(),
  usedMoney: MoneySchema.optional(),
  allowedUnsignedInt: z.number().int().nonnegative().optional(),
  usedUnsignedInt: z.number().int().nonnegative().optional(),
});

export const EligibilityInsuranceItemSchema = z.object({
  category: CodeableConceptSchema.optional(),
  excluded: z.boolean().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  benefit: z.array(EligibilityBenefitSchema).optional(),
  authorizationRequired: z.boolean().optional(),
});

export const CoverageEligibilityResponseSchema = z.object({
  resourceType: z.literal("CoverageEligibilityResponse"),
  ...resourceBase,
  identifier: z.array(IdentifierSchema).optional(),
  status: resourceStatus,
  purpose: z.array(eligibilityPurpose).min(1),
  patient: ReferenceSchema,
  servicedDate: fhirDate.optional(),
  created: fhirDateTime,
  requestor: ReferenceSchema.optional(),
  request: ReferenceSchema,
  outcome: processOutcome,
  disposition: z.string().optional(),
  insurer: ReferenceSchema,
  insurance: z
    .array(
      z.object({
        coverage: ReferenceSchema,
        inforce: z.boolean().optional(),
        benefitPeriod: PeriodSchema.optional(),
        item: z.array(EligibilityInsuranceItemSchema).optional(),
      }),
    )
    .optional(),
}) satisfies z.ZodType<CoverageEligibilityResponse>;
export type CoverageEligibilityResponseParsed = z.infer<typeof CoverageEligibilityResponseSchema>;

// ---- Claim ----------------------------------------------------------------------------------------

export const ClaimItemSchema = z.object({
  extension: z.array(ExtensionSchema).optional(),
  sequence: positiveInt,
  careTeamSequence: z.array(positiveInt).optional(),
  diagnosisSequence: z.array(positiveInt).optional(),
  procedureSequence: z.array(positiveInt).optional(),
  informationSequence: z.array(positiveInt).optional(),
  productOrService: CodeableConceptSchema,
  servicedDate: fhirDate.optional(),
  quantity: QuantitySchema.optional(),
  unitPrice: MoneySchema.optional(),
  factor: z.number().optional(),
  net: MoneySchema.optional(),
  /** Oral care: the tooth (fdi-oral-region). */
  bodySite: CodeableConceptSchema.optional(),
});

/**
 * The visit's Encounter a Claim carries contained (`#encounter`, the exchange's Minimum Data Set,
 * docs/decisions/103): what the portal reads and forwards of it.
 */
export const ContainedEncounterSchema = z.object({
  resourceType: z.literal("Encounter"),
  id: z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, "expected a FHIR id"),
  extension: z.array(ExtensionSchema).optional(),
  identifier: z.array(IdentifierSchema).optional(),
  status: z.enum(["planned", "arrived", "triaged", "in-progress", "onleave", "finished", "cancelled", "entered-in-error", "unknown"]),
  class: CodingSchema,
  period: PeriodSchema.optional(),
  hospitalization: z
    .object({
      extension: z.array(ExtensionSchema).optional(),
      admitSource: CodeableConceptSchema.optional(),
      dischargeDisposition: CodeableConceptSchema.optional(),
    })
    .optional(),
});

export const ClaimSchema = z.object({
  resourceType: z.literal("Claim"),
  ...resourceBase,
  contained: z.array(ContainedEncounterSchema).max(1, "at most one contained resource: the visit's Encounter").optional(),
  identifier: z.array(IdentifierSchema).optional(),
  status: resourceStatus,
  type: CodeableConceptSchema,
  /** The care setting's subtype (claim-subtype: ip, op, emr), docs/decisions/083. */
  subType: CodeableConceptSchema.optional(),
  use: z.enum(["claim", "preauthorization", "predetermination"]),
  patient: ReferenceSchema,
  /** An inpatient or emergency stay: admission → discharge. */
  billablePeriod: PeriodSchema.optional(),
  created: fhirDateTime,
  insurer: ReferenceSchema.optional(),
  provider: ReferenceSchema,
  priority: CodeableConceptSchema,
  /** Vision: the prescription (a VisionPrescription by reference or identifier). */
  prescription: ReferenceOrIdentifierSchema.optional(),
  payee: z.object({ type: CodeableConceptSchema }).optional(),
  /** Transfer of care (guide 7.3 step 4): the referring provider's name (decision 120). */
  referral: z.object({ reference: z.string().max(500).optional(), display: z.string().max(500).optional() }).optional(),
  careTeam: z
    .array(
      z.object({
        sequence: positiveInt,
        provider: ReferenceOrIdentifierSchema,
        role: CodeableConceptSchema.optional(),
        qualification: CodeableConceptSchema.optional(),
      }),
    )
    .optional(),
  related: z
    .array(
      z.object({
        // A resubmission names the prior claim by its platform id and/or its business identifier (decisions 045–048).
        claim: z.object({ reference: ReferenceSchema.shape.reference.optional(), type: z.literal("Claim").optional(), identifier: IdentifierSchema.optional(), display: z.string().optional() }).optional(),
        relationship: CodeableConceptSchema.optional(),
        reference: IdentifierSchema.optional(),
      }),
    )
    .optional(),
  insurance: z.array(
    z.object({
      sequence: positiveInt,
      focal: z.boolean(),
      coverage: ReferenceSchema,
      preAuthRef: z.array(z.string()).optional(),
    }),
  ),
  diagnosis: z
    .array(
      z.object({
        /** The condition onset (institutional claims: the Minimum Data Set). */
        extension: z.array(ExtensionSchema).optional(),
        sequence: positiveInt,
        diagnosisCodeableConcept: CodeableConceptSchema.optional(),
        type: z.array(CodeableConceptSchema).optional(),
        /** An inpatient stay: whether the diagnosis was present on admission (diagnosis-on-admission). */
        onAdmission: CodeableConceptSchema.optional(),
      }),
    )
    .max(CLAIM_LIMITS.diagnoses, `at most ${CLAIM_LIMITS.diagnoses} diagnoses per claim (limit "diagnoses")`)
    .optional(),
  procedure: z
    .array(
      z.object({
        sequence: positiveInt,
        date: fhirDateTime.optional(),
        procedureCodeableConcept: CodeableConceptSchema.optional(),
      }),
    )
    .optional(),
  // The size limits (docs/decisions/093); the machine APIs refuse over them before parsing.
  item: z.array(ClaimItemSchema).max(CLAIM_LIMITS.lines, `at most ${CLAIM_LIMITS.lines} lines per claim (limit "lines")`).optional(),
  supportingInfo: z
    .array(
      z.object({
        sequence: positiveInt,
        category: CodeableConceptSchema,
        code: CodeableConceptSchema.optional(),
        valueAttachment: AttachmentSchema.optional(),
        valueString: z.string().optional(),
        valueQuantity: QuantitySchema.optional(),
        valueBoolean: z.boolean().optional(),
        timingDate: fhirDate.optional(),
        timingPeriod: PeriodSchema.optional(),
        /** Table 35: a vital sign's absence reason. */
        reason: CodeableConceptSchema.optional(),
      }),
    )
    .max(CLAIM_LIMITS.supportingInfo, `at most ${CLAIM_LIMITS.supportingInfo} supporting information entries per claim (limit "supportingInfo")`)
    .optional(),
  /** The accident (guide 6.3.12): its day and type (v3-ActCode MVA, WPA …). */
  accident: z.object({ date: fhirDate, type: CodeableConceptSchema.optional() }).optional(),
  total: MoneySchema.optional(),
}) satisfies z.ZodType<Claim>;
export type ClaimParsed = z.infer<typeof ClaimSchema>;

// ---- ClaimResponse --------------------------------------------------------------------------------

export const AdjudicationSchema = z.object({
  category: CodeableConceptSchema,
  reason: CodeableConceptSchema.optional(),
  amount: MoneySchema.optional(),
  value: z.number().optional(),
});

export const ClaimResponseSchema = z.object({
  resourceType: z.literal("ClaimResponse"),
  ...resourceBase,
  identifier: z.array(IdentifierSchema).optional(),
  status: resourceStatus,
  type: CodeableConceptSchema,
  use: z.enum(["claim", "preauthorization", "predetermination"]),
  patient: ReferenceSchema,
  created: fhirDateTime,
  insurer: ReferenceSchema,
  requestor: ReferenceSchema.optional(),
  request: ReferenceSchema.optional(),
  outcome: processOutcome,
  disposition: z.string().optional(),
  preAuthRef: z.string().optional(),
  preAuthPeriod: PeriodSchema.optional(),
  item: z
    .array(
      z.object({
        itemSequence: positiveInt,
        adjudication: z.array(AdjudicationSchema),
      }),
    )
    .optional(),
  total: z.array(z.object({ category: CodeableConceptSchema, amount: MoneySchema })).optional(),
  payment: z
    .object({
      type: CodeableConceptSchema,
      date: fhirDate.optional(),
      amount: MoneySchema,
    })
    .optional(),
  processNote: z.array(z.object({ number: positiveInt.optional(), text: z.string() })).optional(),
}) satisfies z.ZodType<ClaimResponse>;
export type ClaimResponseParsed = z.infer<typeof ClaimResponseSchema>;

// ---- OperationOutcome -------------------------------------------------------------------------------

export const ISSUE_TYPES = [
  "invalid",
  "structure",
  "required",
  "value",
  "invariant",
  "security",
  "login",
  "unknown",
  "expired",
  "forbidden",
  "suppressed",
  "processing",
  "not-supported",
  "duplicate",
  "multiple-matches",
  "not-found",
  "deleted",
  "too-long",
  "code-invalid",
  "extension",
  "too-costly",
  "business-rule",
  "conflict",
  "transient",
  "lock-error",
  "no-store",
  "exception",
  "timeout",
  "incomplete",
  "throttled",
  "informational",
] as const;

export const OperationOutcomeSchema = z.object({
  resourceType: z.literal("OperationOutcome"),
  id: z.string().optional(),
  issue: z
    .array(
      z.object({
        severity: z.enum(["fatal", "error", "warning", "information"]),
        code: z.enum(ISSUE_TYPES),
        details: CodeableConceptSchema.optional(),
        diagnostics: z.string().optional(),
        expression: z.array(z.string()).optional(),
      }),
    )
    .min(1),
}) satisfies z.ZodType<OperationOutcome>;
export type OperationOutcomeParsed = z.infer<typeof OperationOutcomeSchema>;

// ---- Bundle (searchset) -----------------------------------------------------------------------------

/** A search result Bundle whose entries hold resources matching `resource`. */
export function searchsetBundleSchema<T extends z.ZodType>(resource: T) {
  return z.object({
    resourceType: z.literal("Bundle"),
    id: z.string().optional(),
    meta: MetaSchema.optional(),
    type: z.literal("searchset"),
    total: z.number().int().nonnegative().optional(),
    link: z.array(z.object({ relation: z.string(), url: z.string() })).optional(),
    entry: z
      .array(
        z.object({
          fullUrl: z.string().optional(),
          resource,
          search: z.object({ mode: z.enum(["match", "include", "outcome"]).optional() }).optional(),
        }),
      )
      .optional(),
  });
}

export const ClaimSearchBundleSchema = searchsetBundleSchema(ClaimSchema) satisfies z.ZodType<Bundle<Claim>>;
export const ClaimResponseSearchBundleSchema = searchsetBundleSchema(ClaimResponseSchema) satisfies z.ZodType<
  Bundle<ClaimResponse>
>;
