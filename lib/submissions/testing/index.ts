/** lib/submissions test helpers (tests only; the convention of docs/decisions/064). */
export { deleteSubmissions, insertSubmissions, patchEverySubmission, patchSubmission, type SubmissionRow } from "./rows";
export { seedVolume, type VolumeSeedOptions } from "./volume-seed";
export { demoFormPatient } from "./form-patient";
export { professionalCare, professionalVisit } from "./care-setting";
