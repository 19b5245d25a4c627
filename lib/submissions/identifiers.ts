import { randomUUID } from "node:crypto";
import { env } from "@/lib/env";

/**
 * The clinic's business identifier of a Claim (`Claim.identifier[0]`). The platform refuses a
 * second submission with the same provider + system + value (ERR-005), which is what makes a
 * retry safe. The system names the clinic (its Organization id on the platform) so two clinics
 * can never collide; the value is a UUID fixed once, when the submission is queued.
 */
export const CLAIM_IDENTIFIER_SYSTEM_BASE = "https://clinic.example/fhir/claim-id";

export function claimIdentifierSystem(providerOrgId: string = env().PROVIDER_ORG_ID): string {
  return `${CLAIM_IDENTIFIER_SYSTEM_BASE}/${providerOrgId}`;
}

export function newClaimIdentifierValue(): string {
  return randomUUID();
}
