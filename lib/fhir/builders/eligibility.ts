import type { CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { organizationReference, patientReference } from "../references";
import { CODE_SYSTEMS, type BenefitCategoryCode } from "../systems";
import { EXTENSIONS } from "../nphies/extensions";

/**
 * The purposes the portal sends: benefits and validation (the spec's), auth-requirements (which
 * services need a prior authorization) and discovery (the insurer reports every coverage it knows
 * of the patient: guide 7.1, Table 36 — the patient's identifier is enough, no coverage named).
 */
export const ELIGIBILITY_PURPOSES = ["benefits", "validation", "auth-requirements", "discovery"] as const;
export type EligibilityPurpose = (typeof ELIGIBILITY_PURPOSES)[number];
/** The purposes the desk ticks on the form; discovery is added for a patient without a coverage. */
export const FORM_ELIGIBILITY_PURPOSES = ["benefits", "validation", "auth-requirements"] as const satisfies readonly EligibilityPurpose[];

/** System of the clinic's CoverageEligibilityRequest.identifier; the provider's id makes it unique per clinic. */
export const ELIGIBILITY_IDENTIFIER_SYSTEM_BASE = "https://clinic.example/fhir/eligibility-request-id";

export interface EligibilityRequestInput {
  /** Provider-assigned identifier value (a UUID), fixed for this check. */
  identifierValue: string;
  /** The patient's national ID / Iqama: the patient's id on the platform. */
  nationalId: string;
  /** The payer's Organization id, e.g. `payer-rimal`. */
  insurerId: string;
  /** The clinic's Organization id (PROVIDER_ORG_ID). */
  providerOrgId: string;
  /** Date of service, YYYY-MM-DD (the clinic's calendar day). */
  servicedDate: string;
  purposes: readonly EligibilityPurpose[];
  /** Standard benefit-category codes; empty = every category of the plan. */
  categories: readonly BenefitCategoryCode[];
  /** Creation time; sent as ISO 8601 UTC. */
  created: Date;
  /**
   * The exchange's request (docs/decisions/075): the site asked about (Location id), the
   * priority, a period instead of the single day, and the coverage. Each optional: the spec's
   * REST request goes without them.
   */
  facilityLocationId?: string;
  priority?: "normal" | "stat" | "deferred";
  servicedPeriod?: { start: string; end: string };
  coverageRef?: string;
  // transfer: the patient comes on a transfer of care (guide 7.3 step 3, Table 37): extension-transfer = true.
  transfer?: boolean;
  // newborn: a baby checked under the mother's coverage (extension-newborn, guide 6.5 and 7.1.1.1)
  newborn?: boolean;
}

/**
 * Form values → CoverageEligibilityRequest exactly as the spec lists it: identifier, status
 * `active`, purpose, patient, servicedDate, created (UTC), provider, insurer, item[].category.
 * Nothing else is sent (no `insurance`: the platform finds the coverage by patient and insurer).
 * A discovery names no coverage at all: the insurer answers with the coverages it holds.
 */
export function buildEligibilityRequest(input: EligibilityRequestInput): CoverageEligibilityRequest {
  const purposes = ELIGIBILITY_PURPOSES.filter((p) => input.purposes.includes(p));
  const categories = [...new Set(input.categories)];
  return {
    resourceType: "CoverageEligibilityRequest",
    ...(input.transfer || input.newborn
      ? { extension: [...(input.newborn ? [{ url: EXTENSIONS.newborn, valueBoolean: true }] : []), ...(input.transfer ? [{ url: EXTENSIONS.transfer, valueBoolean: true }] : [])] }
      : {}),
    identifier: [{ system: `${ELIGIBILITY_IDENTIFIER_SYSTEM_BASE}/${input.providerOrgId}`, value: input.identifierValue }],
    status: "active",
    purpose: purposes,
    patient: patientReference(input.nationalId),
    ...(input.servicedPeriod ? { servicedPeriod: { ...input.servicedPeriod } } : { servicedDate: input.servicedDate }),
    ...(input.priority ? { priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: input.priority }] } } : {}),
    ...(input.facilityLocationId ? { facility: { reference: `Location/${input.facilityLocationId}` } } : {}),
    ...(input.coverageRef ? { insurance: [{ focal: true, coverage: { reference: `Coverage/${input.coverageRef}` } }] } : {}),
    created: input.created.toISOString(),
    provider: organizationReference(input.providerOrgId),
    insurer: organizationReference(input.insurerId),
    ...(categories.length > 0
      ? { item: categories.map((code) => ({ category: { coding: [{ system: CODE_SYSTEMS.benefitCategory, code }] } })) }
      : {}),
  };
}
