/**
 * What the browser may import from lib/patients: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { addCoverageAction, recordOfflineEligibilityAction, registerNewbornAction, registerPatientAction, searchPatientsAction, updatePatientAction } from "./actions";
export { GENDERS } from "./genders";

/** The forms' schemas (and zod), loaded when a form is first used: not in the page's first-load JavaScript. */
export const loadPatientFormSchemas = () => import("./schemas");
/** The newborn form's schema, loaded when the form is first used. */
export const loadNewbornSchema = () => import("./newborn-schema");
export { NEWBORN_DAYS, cardExpiredBefore, dayAfterExpiry, dayAsDate, daysOld, underMotherCoverage } from "./dates";
/** The offline eligibility form's schema, loaded when the form is first used. */
export const loadOfflineSchema = () => import("./offline-schema");
