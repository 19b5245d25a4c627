import { CODE_SYSTEMS, ITEM_SYSTEMS_BY_CLAIM_TYPE, type ClaimType } from "@/lib/fhir/browser";

/** The spec's item and procedure code system (its REST dialect). */
export const CPT_SYSTEM = CODE_SYSTEMS.cpt;

/**
 * The code systems a line of this care setting may be coded in: the exchange's for the setting
 * (lib/fhir/nphies ITEM_SYSTEMS_BY_CLAIM_TYPE), then CPT, the spec's REST dialect — the exchange's
 * messaging refuses CPT lines, the REST platform takes both (docs/decisions/083).
 */
export function itemSystemsFor(type: ClaimType): readonly string[] {
  return [...ITEM_SYSTEMS_BY_CLAIM_TYPE[type], CPT_SYSTEM];
}

/** The system a new line of this care setting starts with: CPT where the spec's clinics used it, else the setting's first. */
export function defaultItemSystem(type: ClaimType): string {
  return type === "professional" || type === "institutional" ? CPT_SYSTEM : ITEM_SYSTEMS_BY_CLAIM_TYPE[type][0]!;
}

