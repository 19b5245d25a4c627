import { profileUrl } from "./canonical";

/**
 * The exchange's resource profiles: one name per role a resource plays in a message. The role,
 * not the resource type, picks the profile — an Organization is a provider or an insurer, a Task
 * is a poll, a cancellation or a status check, a Claim is one of ten (five care settings × claim
 * or prior authorization).
 */
export const PROFILE_NAMES = {
  bundle: "bundle",
  messageHeader: "message-header",
  patient: "patient",
  coverage: "coverage",
  providerOrganization: "provider-organization",
  insurerOrganization: "insurer-organization",
  policyholderOrganization: "policyholder-organization",
  practitioner: "practitioner",
  practitionerRole: "practitionerrole",
  location: "location",
  encounter: "encounter",
  eligibilityRequest: "eligibility-request",
  eligibilityResponse: "eligibility-response",
  claimResponse: "claim-response",
  priorauthResponse: "priorauth-response",
  communication: "communication",
  communicationRequest: "communication-request",
  pollRequest: "poll-request",
  pollResponse: "poll-response",
  cancelRequest: "cancel-request",
  cancelResponse: "cancel-response",
  statusCheck: "status-check",
  statusCheckResponse: "status-check-response",
  paymentNotice: "payment-notice",
  paymentReconciliation: "payment-reconciliation",
  operationOutcome: "operationoutcome",
  visionPrescription: "vision-prescription",
  medicationRequest: "medicationrequest",
} as const;

export type ProfileRole = keyof typeof PROFILE_NAMES;

/** `meta.profile` value of a role. */
export function profileOf(role: ProfileRole): string {
  return profileUrl(PROFILE_NAMES[role]);
}

/** The five care settings of a claim (HL7 claim-type codes, as the exchange uses them). */
export const CLAIM_TYPES = ["institutional", "professional", "oral", "pharmacy", "vision"] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

export function isClaimType(value: unknown): value is ClaimType {
  return typeof value === "string" && (CLAIM_TYPES as readonly string[]).includes(value);
}

/** `Claim.use`: a claim for payment, or a request for prior authorization. */
export type ClaimUse = "claim" | "preauthorization";

/** Profile name of a Claim: `oral-claim`, `pharmacy-priorauth` … */
export function claimProfileName(type: ClaimType, use: ClaimUse): string {
  return `${type}-${use === "claim" ? "claim" : "priorauth"}`;
}

export function claimProfile(type: ClaimType, use: ClaimUse): string {
  return profileUrl(claimProfileName(type, use));
}

/** Every profile name the exchange defines for a resource type (what the checker accepts there). */
export function profileNamesFor(resourceType: string): readonly string[] {
  switch (resourceType) {
    case "Claim":
      return CLAIM_TYPES.flatMap((type) => [claimProfileName(type, "claim"), claimProfileName(type, "preauthorization")]);
    case "Organization":
      return [PROFILE_NAMES.providerOrganization, PROFILE_NAMES.insurerOrganization, PROFILE_NAMES.policyholderOrganization];
    case "Task":
      return [PROFILE_NAMES.pollRequest, PROFILE_NAMES.pollResponse, PROFILE_NAMES.cancelRequest, PROFILE_NAMES.cancelResponse, PROFILE_NAMES.statusCheck, PROFILE_NAMES.statusCheckResponse];
    case "ClaimResponse":
      return [PROFILE_NAMES.claimResponse, PROFILE_NAMES.priorauthResponse];
    case "Bundle":
      return [PROFILE_NAMES.bundle];
    case "MessageHeader":
      return [PROFILE_NAMES.messageHeader];
    case "Patient":
      return [PROFILE_NAMES.patient];
    case "Coverage":
      return [PROFILE_NAMES.coverage];
    case "Practitioner":
      return [PROFILE_NAMES.practitioner];
    case "PractitionerRole":
      return [PROFILE_NAMES.practitionerRole];
    case "Location":
      return [PROFILE_NAMES.location];
    case "Encounter":
      return [PROFILE_NAMES.encounter];
    case "CoverageEligibilityRequest":
      return [PROFILE_NAMES.eligibilityRequest];
    case "CoverageEligibilityResponse":
      return [PROFILE_NAMES.eligibilityResponse];
    case "Communication":
      return [PROFILE_NAMES.communication];
    case "CommunicationRequest":
      return [PROFILE_NAMES.communicationRequest];
    case "PaymentNotice":
      return [PROFILE_NAMES.paymentNotice];
    case "PaymentReconciliation":
      return [PROFILE_NAMES.paymentReconciliation];
    case "OperationOutcome":
      return [PROFILE_NAMES.operationOutcome];
    case "VisionPrescription":
      return [PROFILE_NAMES.visionPrescription];
    case "MedicationRequest":
      return [PROFILE_NAMES.medicationRequest];
    default:
      return [];
  }
}
