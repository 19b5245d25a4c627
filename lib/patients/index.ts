/** lib/patients: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { callerOf } from "./caller";
export { ageOn, dayAsDate } from "./dates";
export { insurerNames } from "./insurer-names";
export { addCoverage, findPatientByNationalId, getCoverage, getPatient, listCoverages, listInsurers, listSubmissionsForPatient, registerPatient } from "./registry";
export type { CoverageView, Patient, PatientSummary, SubmissionSummary } from "./registry";
export { addCoverageSchema, formatSaudiMobile, patientSearchSchema, registerPatientSchema } from "./schemas";
export type { AddCoverageInput, RegisterPatientInput } from "./schemas";
export { auditedSearch, auditedView } from "./service";
export { seedDemoPatients } from "./demo-data";
