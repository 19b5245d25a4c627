/**
 * What the browser may import from lib/eligibility: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { authorizationRequirementsAction, changeOfflineEligibilityAction, checkEligibilityAction, estimateVisitAction, registerDiscoveredCoverageAction } from "./actions";
export type { VisitEstimate, VisitEstimateLine } from "./estimate";
export { COMMON_BENEFIT_CATEGORIES } from "./common-categories";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadEligibilityFormSchema = () => import("./schema").then((m) => m.eligibilityFormSchema);
