/**
 * What the browser may import from lib/patients: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { addCoverageAction, registerPatientAction, searchPatientsAction, updatePatientAction } from "./actions";
export { GENDERS } from "./genders";

/** The forms' schemas (and zod), loaded when a form is first used: not in the page's first-load JavaScript. */
export const loadPatientFormSchemas = () => import("./schemas");
