/** lib/patients: what other modules and app/ may use (docs/decisions/041-module-entries.md). */
export { callerOf } from "./caller";
export { ageOn, cardExpiredBefore, dayAfterExpiry, dayAsDate, daysOld, NEWBORN_DAYS, underMotherCoverage } from "./dates";
export { birthWeightKg, coverageUse, listNewborns, motherOf, mothersCoverages, requestCoverageUse, type CoverageUse, type RequestCoverageUse } from "./newborn";
export { kilogramsOf, registerNewbornSchema } from "./newborn-schema";
export type { RegisterNewbornInput } from "./newborn-schema";
export { insurerNames } from "./insurer-names";
export {
  coverageCard,
  coverageHolderTermsOf,
  coverageIdByRef,
  coverageIdsNamed,
  coverageLicenseByRef,
  coverageOfHolderByRef,
  coverageRecordFor,
  coverageSummary,
  coverageTermsOf,
  coverageTermsWith,
  firstCoverageIdWith,
} from "./coverage-reads";
export type { CoverageCard, CoverageRecord, CoverageRow, CoverageTerms } from "./coverage-reads";
export { addCoverage, coverageTermsByRef, findPatientByNationalId, getCoverage, getPatient, listCoverages, listInsurers, registerPatient, updatePatient } from "./registry";
export type { CoverageView, Patient, PatientSummary, PlannedUnder, SentUnder, UpdateResult } from "./registry";
export { providePlannedUnder, provideSentUnder } from "./sent-under";
export { addCoverageFields, addCoverageSchema, expiryNotBeforeStart, formatSaudiMobile, isCardDate, patientSearchSchema, registerPatientSchema, updatePatientSchema } from "./schemas";
export type { AddCoverageInput, RegisterPatientInput, UpdatePatientInput } from "./schemas";
export { auditedAddCoverage, auditedChangeOfflineEligibility, auditedSearch, auditedUpdate, auditedView, patientCodeLists } from "./service";
export { seedDemoPatients } from "./demo-data";
export { listOfflineEligibilities, offlineEligibilityFor, OFFLINE_ELIGIBILITY_DAYS, type OfflineEligibility, type ChangeOfflineResult } from "./offline";
export { changeOfflineEligibilitySchema, recordOfflineEligibilitySchema, type ChangeOfflineEligibilityInput, type RecordOfflineEligibilityInput } from "./offline-schema";
