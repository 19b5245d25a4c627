import { CODE_SYSTEMS, ITEM_SYSTEMS_BY_CLAIM_TYPE, type ClaimType } from "@/lib/fhir/browser";

/** The spec's item and procedure code system (its REST dialect). */
export const CPT_SYSTEM = CODE_SYSTEMS.cpt;

/** How the portal speaks to the platform (PLATFORM_PROTOCOL): the spec's REST, or the national exchange's messaging. */
export type PlatformProtocol = "rest" | "messaging";

/**
 * The code systems a line of this care setting may be coded in: the exchange's for the setting
 * (lib/fhir/nphies ITEM_SYSTEMS_BY_CLAIM_TYPE), then — in the spec's REST protocol only — CPT, its
 * dialect. The national exchange refuses CPT lines, so in messaging they are not offered, and one
 * sent anyway is a field error before anything leaves (docs/decisions/083, 092).
 */
export function itemSystemsFor(type: ClaimType, protocol: PlatformProtocol = "rest"): readonly string[] {
  return protocol === "messaging" ? ITEM_SYSTEMS_BY_CLAIM_TYPE[type] : [...ITEM_SYSTEMS_BY_CLAIM_TYPE[type], CPT_SYSTEM];
}

/** The system a new line of this care setting starts with: CPT where the spec's REST clinics used it, else the setting's first. */
export function defaultItemSystem(type: ClaimType, protocol: PlatformProtocol = "rest"): string {
  return protocol === "rest" && (type === "professional" || type === "institutional") ? CPT_SYSTEM : ITEM_SYSTEMS_BY_CLAIM_TYPE[type][0]!;
}


/**
 * Every code system a line of any care setting may be coded in, in this protocol (the front desk's
 * estimate, which has no claim type yet): the exchange's lists, and CPT in the spec's REST only.
 */
export function itemSystemsOfProtocol(protocol: PlatformProtocol = "rest"): readonly string[] {
  const exchange = [...new Set(Object.values(ITEM_SYSTEMS_BY_CLAIM_TYPE).flat())];
  return protocol === "messaging" ? exchange : [CPT_SYSTEM, ...exchange];
}
