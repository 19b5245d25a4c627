import type { Extension } from "@medplum/fhirtypes";
import {
  CLAIM_PROCESSING_STATUS_EXTENSION,
  CLAIM_PROCESSING_STATUSES,
  type ClaimProcessingStatus,
} from "./systems";

/**
 * On the platform, a patient's resource id IS the national ID / Iqama number:
 * `{"reference": "Patient/1000000001"}`. Organizations are `Organization/<org id>`,
 * coverages `Coverage/<coverage id>`.
 */
export function patientReference(nationalId: string): { reference: string } {
  return { reference: `Patient/${nationalId}` };
}

export function organizationReference(orgId: string): { reference: string } {
  return { reference: `Organization/${orgId}` };
}

/** Splits `<Type>/<id>`; returns undefined when the reference is not of that form or type. */
export function parseReference(
  reference: string | undefined,
  expectedType?: string,
): { type: string; id: string } | undefined {
  if (typeof reference !== "string") return undefined;
  const match = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(reference);
  if (!match) return undefined;
  const [, type, id] = match;
  if (!type || !id) return undefined;
  if (expectedType && type !== expectedType) return undefined;
  return { type, id };
}

/** Reads the platform processing status extension of a Claim or ClaimResponse. */
export function claimProcessingStatus(resource: { extension?: Extension[] | undefined }): ClaimProcessingStatus | undefined {
  const ext = resource.extension?.find((e) => e.url === CLAIM_PROCESSING_STATUS_EXTENSION);
  const code = ext?.valueCode;
  return (CLAIM_PROCESSING_STATUSES as readonly string[]).includes(code ?? "") ? (code as ClaimProcessingStatus) : undefined;
}

export function claimProcessingStatusExtension(status: ClaimProcessingStatus): Extension {
  return { url: CLAIM_PROCESSING_STATUS_EXTENSION, valueCode: status };
}
