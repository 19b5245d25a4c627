/** lib/patients: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { callerOf } from "./caller";
export { ageOn, dayAsDate } from "./dates";
export { insurerNames } from "./insurer-names";
export { addCoverage, findPatientByNationalId, getCoverage, getPatient, listCoverages, listInsurers, listSubmissionsForPatient, registerPatient, updatePatient } from "./registry";
export type { CoverageView, Patient, PatientSummary, SubmissionSummary, UpdateResult } from "./registry";
export { addCoverageSchema, formatSaudiMobile, patientSearchSchema, registerPatientSchema, updatePatientSchema } from "./schemas";
export type { AddCoverageInput, RegisterPatientInput, UpdatePatientInput } from "./schemas";
export { auditedSearch, auditedUpdate, auditedView } from "./service";
export { seedDemoPatients } from "./demo-data";
