import type { CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { profileOf } from "../profiles";
import { SYSTEMS } from "../terminology";
import type { MessageParties } from "./facts";
import { ref } from "./resources";

/**
 * A CoverageEligibilityRequest as the exchange takes it (docs/decisions/075), from the portal's
 * request and its parties: the profile, a priority (normal unless given), the day asked about as a
 * period (the exchange's elements name a period; one day is a period of that day), the facility as
 * the message's Location, the coverage asked about as the focal insurance, and every party
 * referenced as an entry of the message. What the portal's request already says is kept.
 */
export function assembleEligibility(request: CoverageEligibilityRequest, parties: MessageParties): CoverageEligibilityRequest {
  const { servicedDate, ...rest } = request;
  const period = request.servicedPeriod ?? (servicedDate ? { start: servicedDate.slice(0, 10), end: servicedDate.slice(0, 10) } : undefined);
  return {
    ...rest,
    meta: { ...request.meta, profile: [profileOf("eligibilityRequest")] },
    priority: request.priority ?? { coding: [{ system: SYSTEMS.processPriority, code: "normal" }] },
    ...(period ? { servicedPeriod: period } : {}),
    patient: ref("Patient", parties.patient.id),
    provider: ref("Organization", parties.provider.id),
    insurer: ref("Organization", parties.insurer.id),
    ...(parties.location ? { facility: ref("Location", parties.location.id) } : {}),
    // A discovery names no coverage (Table 36): the insurer reports the ones it holds.
    ...(request.insurance?.length ? {} : parties.coverage && !request.purpose?.includes("discovery") ? { insurance: [{ focal: true, coverage: ref("Coverage", parties.coverage.id) }] } : {}),
  };
}
