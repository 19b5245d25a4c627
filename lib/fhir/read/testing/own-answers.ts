import { checkStructure } from "../structure";
import { readBundle, readClaimResponse, readCoverageEligibilityResponse, readOperationOutcome } from "../index";

/**
 * Test helper: every FHIR resource the portal itself answers (on /api/exchange and /fhir) must
 * parse in the portal's own readers. The API test suites pass each JSON body through here; it
 * throws the reader's FhirReadError when the portal answered something it could not read itself.
 */
export function assertReadableByPortal(body: unknown): void {
  if (typeof body !== "object" || body === null || typeof (body as { resourceType?: unknown }).resourceType !== "string") return;
  const resource = body as { resourceType: string; parameter?: { resource?: unknown; part?: { resource?: unknown }[] }[] };
  switch (resource.resourceType) {
    case "ClaimResponse":
      readClaimResponse(resource);
      return;
    case "CoverageEligibilityResponse":
      readCoverageEligibilityResponse(resource);
      return;
    case "OperationOutcome":
      readOperationOutcome(resource);
      return;
    case "Bundle":
      readBundle(resource);
      return;
    case "Parameters":
      for (const p of resource.parameter ?? []) {
        assertReadableByPortal(p.resource);
        for (const part of p.part ?? []) assertReadableByPortal(part.resource);
      }
      return;
    default:
      checkStructure(resource);
  }
}
