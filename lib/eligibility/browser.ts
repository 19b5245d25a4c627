/**
 * What the browser may import from lib/eligibility: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { checkEligibilityAction } from "./actions";
export { COMMON_BENEFIT_CATEGORIES, eligibilityFormSchema } from "./schema";
