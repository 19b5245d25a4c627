/**
 * What the browser may import from lib/fhir: code systems, the curated code lists, the national-ID
 * check, money text and the platform's fixed texts — pure helpers only. Never the resource schemas
 * (zod), the builders or the readers: the full entry (index.ts) is for the server and the sandbox,
 * and one import of it puts all of that in every page's first-load JavaScript
 * (docs/decisions/041-module-entries.md, 055-first-load-javascript.md).
 */
export { CPT_CODES, ICD10AM_CODES, findCode, isCptCode, isIcd10amCode, searchTerminology } from "./terminology";
export type { ProcedureEntry, TerminologyEntry } from "./terminology";
// The exchange's code system URLs (the code pickers name their catalogue systems with them; docs/decisions/086).
export { SYSTEMS } from "./nphies/terminology";
export {
  ADJUDICATION_REASONS,
  BENEFIT_CATEGORIES,
  CODE_SYSTEMS,
  NATIONAL_EXCHANGE,
  PLATFORM_CURRENCY,
  SANDBOX_ADJUDICATION_REASON_SYSTEM,
  benefitCategoryName,
  isBenefitCategoryCode,
} from "./systems";
export type { AdjudicationOutcome, AdjudicationReasonCode, BenefitCategoryCode, BilingualDisplay } from "./systems";
export { readDisposition, readNote } from "./platform-texts";
export type { DispositionFacts, DispositionUse, FixedDisposition, NoteFacts } from "./platform-texts";
export { checkNationalId } from "./national-id";
export type { NationalIdProblem } from "./national-id";
export { formatMinorUnits } from "./money";
export { ELIGIBILITY_PURPOSES, FORM_ELIGIBILITY_PURPOSES } from "./builders/eligibility";
export { CANCEL_REASONS } from "./systems";
export { describeReference } from "./read/reference";
// Which services an eligibility answer says need a prior authorization (a pure reading of its view).
export { servicesNeedingAuthorization } from "./read/auth-requirements";
// The national exchange's small value sets the forms choose from (decision 083): care settings,
// subtypes, item code systems per care setting, patient documents. Constants only.
export { CLAIM_TYPES, isClaimType, type ClaimType } from "./nphies/profiles";
// The Minimum Data Set's value sets by name only (the catalogue's systems; the lists are in lib/fhir/mds).
export { MDS_LIST_SYSTEMS, type MdsListKey } from "./nphies/mds-lists";
export {
  CLAIM_SUBTYPES,
  DIAGNOSIS_ON_ADMISSION_CODES,
  ESTIMATED_STAY_DAYS,
  ITEM_SYSTEMS_BY_CLAIM_TYPE,
  PATIENT_DOCUMENTS,
  REQUIRED_SUPPORTING_INFO,
  SUBTYPES_BY_CLAIM_TYPE,
  SYSTEMS as NPHIES_SYSTEMS,
  isFdiToothCode,
  requiredSupportingInfo,
  requiresOnAdmission,
  type ClaimSubtype,
  type DiagnosisOnAdmission,
  type PatientDocument,
} from "./nphies/terminology";
// The readers' view types (erased at build: no reader code reaches the browser).
export type { BenefitCategoryView, CodedView, Decision, ExtensionView, InsuranceView, MoneyView, ReferenceView } from "./read";
// The claim size limits, for the staff forms' field errors (docs/decisions/093).
export { CLAIM_LIMITS, CLAIM_LIMIT_WORDS, FORM_CLAIM_LIMITS } from "./nphies/limits";
export type { ClaimLimitName } from "./nphies/limits";
/** Prescriptions (docs/decisions/116): the pharmacist's reasons and substitutes, the dose frequencies. */
export { DOSE_FREQUENCY_CODES, PHARMACIST_SELECTION_REASON_CODES, PHARMACIST_SUBSTITUTE_CODES } from "./nphies/prescriptions";
