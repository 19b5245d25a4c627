import type { CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { organizationReference, patientReference } from "../references";
import { CODE_SYSTEMS, type BenefitCategoryCode } from "../systems";

/** The purposes the portal sends (spec: "Values used: benefits, validation"). */
export const ELIGIBILITY_PURPOSES = ["benefits", "validation"] as const;
export type EligibilityPurpose = (typeof ELIGIBILITY_PURPOSES)[number];

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
}

/**
 * Form values → CoverageEligibilityRequest exactly as the spec lists it: identifier, status
 * `active`, purpose, patient, servicedDate, created (UTC), provider, insurer, item[].category.
 * Nothing else is sent (no `insurance`: the platform finds the coverage by patient and insurer).
 */
export function buildEligibilityRequest(input: EligibilityRequestInput): CoverageEligibilityRequest {
  const purposes = ELIGIBILITY_PURPOSES.filter((p) => input.purposes.includes(p));
  const categories = [...new Set(input.categories)];
  return {
    resourceType: "CoverageEligibilityRequest",
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
