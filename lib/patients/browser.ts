/**
 * What the browser may import from lib/patients: server-action references, form schemas and pure
 * helpers — never the database (docs/decisions/041-module-entries.md).
 */
export { addCoverageAction, registerPatientAction, searchPatientsAction, updatePatientAction } from "./actions";
export { GENDERS, addCoverageSchema, registerPatientSchema, updatePatientSchema } from "./schemas";
