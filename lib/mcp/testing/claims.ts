import { CODE_SYSTEMS } from "@/lib/fhir";

/**
 * A FHIR Claim as an agent would compose it for request_authorization / submit_claim: the
 * patient by national ID, the coverage by the platform's id (find_patient: platformCoverageId),
 * CPT lines (the spec's REST). use and provider are left for the server to fill in.
 */
export function agentClaim(spec: { nationalId: string; coverageRef: string; items: { code: string; price: number; quantity?: number }[]; diagnoses?: string[]; preAuthRef?: string; servicedDate?: string }): Record<string, unknown> {
  const day = spec.servicedDate ?? new Date().toISOString().slice(0, 10);
  return {
    resourceType: "Claim",
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] },
    patient: { reference: `Patient/${spec.nationalId}` },
    created: new Date().toISOString(),
    priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: `Coverage/${spec.coverageRef}` }, ...(spec.preAuthRef ? { preAuthRef: [spec.preAuthRef] } : {}) }],
    diagnosis: (spec.diagnoses ?? ["J06.9"]).map((code, i) => ({ sequence: i + 1, diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code }] } })),
    item: spec.items.map((item, i) => ({
      sequence: i + 1,
      productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: item.code }] },
      servicedDate: day,
      quantity: { value: item.quantity ?? 1 },
      unitPrice: { value: item.price, currency: "SAR" },
    })),
  };
}
