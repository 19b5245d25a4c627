import { PROFILE_NAMES } from "../profiles";
import { EXTENSIONS } from "../extensions";
import type { ClaimType } from "../profiles";

/**
 * The elements each profile requires, as paths below the resource. `a.b` means every `a` present
 * has a `b` (and at least one `a` exists); `serviced[x]` accepts any `servicedDate`,
 * `servicedPeriod` …; `extension(<url>)` means an extension with that URL. Kept as data so the
 * sandbox's README and the portal's conformance tests read the same table.
 */
export type RequiredPaths = readonly string[];

const CLAIM_COMMON: RequiredPaths = [
  "identifier.system",
  "identifier.value",
  "status",
  "type.coding.code",
  "subType.coding.code",
  "use",
  "patient",
  "created",
  "insurer",
  "provider",
  "priority.coding.code",
  "payee.type",
  "insurance.sequence",
  "insurance.focal",
  "insurance.coverage",
  "diagnosis.sequence",
  "diagnosis.diagnosisCodeableConcept.coding.code",
  "diagnosis.type",
  "item.sequence",
  "item.productOrService.coding.system",
  "item.productOrService.coding.code",
  "item.quantity.value",
  "item.unitPrice.value",
  "item.net.value",
  "item.serviced[x]",
  "total.value",
];

export const CARE_TEAM_PATHS: RequiredPaths = ["careTeam.sequence", "careTeam.provider", "careTeam.role", "careTeam.qualification.coding.code"];

export function claimRequiredPaths(type: ClaimType): RequiredPaths {
  return type === "pharmacy" ? CLAIM_COMMON : [...CLAIM_COMMON, ...CARE_TEAM_PATHS];
}

export const REQUIRED_BY_PROFILE: Readonly<Record<string, RequiredPaths>> = {
  [PROFILE_NAMES.messageHeader]: ["eventCoding.system", "eventCoding.code", "destination.endpoint", "destination.receiver", "sender", "source.endpoint", "focus"],
  // MDS note 5.2 (p. 25): Patient.maritalStatus mandated, occupation added.
  [PROFILE_NAMES.patient]: ["identifier.type", "identifier.system", "identifier.value", "name", "gender", "birthDate", "maritalStatus.coding.code", `extension(${EXTENSIONS.occupation})`],
  // MDS note 5.2 (p. 25): Coverage.class 1..*, policyHolder mandated; subscriber is optional (decision 104).
  [PROFILE_NAMES.coverage]: ["identifier.system", "identifier.value", "status", "type", "policyHolder", "beneficiary", "relationship", "payor", "class.type", "class.value"],
  [PROFILE_NAMES.providerOrganization]: ["identifier.system", "identifier.value", "active", "type", "name", `extension(${EXTENSIONS.providerType})`],
  [PROFILE_NAMES.insurerOrganization]: ["identifier.system", "identifier.value", "active", "type", "name"],
  [PROFILE_NAMES.policyholderOrganization]: ["identifier.value", "active", "name"],
  [PROFILE_NAMES.practitioner]: ["identifier.system", "identifier.value", "active", "name"],
  // Profile note 3.2 (p. 17): Location.name was removed from the location profile (decision 104).
  [PROFILE_NAMES.location]: ["identifier.system", "identifier.value", "status", "managingOrganization"],
  // A prescription's line (guide 7.11, 9.6): what is prescribed, for whom, by whom, and how it is taken.
  [PROFILE_NAMES.medicationRequest]: ["status", "intent", "medication[x]", "subject", "authoredOn", "requester", "dosageInstruction"],
  [PROFILE_NAMES.encounter]: ["identifier.value", "status", "class.code", "subject", "period.start", "serviceProvider"],
  // insurance.coverage: required unless the purpose includes discovery (Table 36) — rules eligibilityCoverage, discoveryAlone.
  [PROFILE_NAMES.eligibilityRequest]: ["identifier.system", "identifier.value", "status", "priority.coding.code", "purpose", "patient", "serviced[x]", "created", "provider", "insurer", "facility"],
  [PROFILE_NAMES.pollRequest]: ["identifier.value", "status", "intent", "code.coding.code", "requester", "owner", "authoredOn"],
  [PROFILE_NAMES.cancelRequest]: ["identifier.value", "status", "intent", "code.coding.code", "focus", "requester", "owner", "authoredOn", "reasonCode.coding.code"],
  [PROFILE_NAMES.statusCheck]: ["identifier.value", "status", "intent", "code.coding.code", "focus", "requester", "owner", "authoredOn"],
  [PROFILE_NAMES.communication]: ["identifier.value", "status", "subject", "about", "payload", "sender", "recipient", "sent"],
  [PROFILE_NAMES.paymentNotice]: ["identifier.value", "status", "created", "payment", "recipient", "amount.value", "paymentStatus"],
};
