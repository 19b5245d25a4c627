/** lib/eligibility: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export type { EligibilityField, EligibilityFormInput } from "./schema";
export { getCheckView, listChecksForPatient } from "./store";
export { authorizationRequirementsFor } from "./auth-requirements";
export type { EligibilityCheckView } from "./store";
export { errorField } from "./store";
export { estimateVisit, type PlannedService, type VisitEstimate } from "./estimate";
export { runEligibilityCheck, type CheckOutcome, type EligibilityDeps } from "./service";
export { ensureRecentEligibility, freshnessRequestOf, outboxEligibility, preSendEligibility, type FreshEligibility, type FreshnessDeps, type FreshnessRequest, type QueuedClaim } from "./freshness";
