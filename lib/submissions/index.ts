/**
 * lib/submissions: a submission — a prior authorization or a claim — from its form to its answer
 * (docs/decisions/062). It owns the `submissions` table (the only module that writes it), the
 * form's values and schemas, the Claim built from them, the life cycle (states, timeline, live
 * event of each change), the pipeline's leases and schedule, and the views the pages show.
 * lib/pipeline (the pipeline) drives the changes; lib/authorizations and lib/claims are feature
 * layers on it. Other modules import only this file (docs/decisions/041-module-entries.md).
 */
export {
  TRANSITIONS,
  FINAL_STATUSES,
  DECISION_STATUSES,
  LIVE_CHANNEL,
  announceLive,
  IllegalTransitionError,
  StaleSubmissionError,
  appendTimeline,
  audienceFor,
  canTransition,
  isFinal,
  transition,
  noteOnTimeline,
  type DecisionStatus,
  type Submission,
  type SubmissionPatch,
  type TransitionDetail,
} from "./states";
export {
  ScrubBlockedError,
  SubmissionNotFoundError,
  createDraft,
  batchStatusCounts,
  countAwaitingExchange,
  standingClaimsOf,
  findSubmissionByReference,
  getSubmission,
  lockSubmission,
  queue,
  retrySubmission,
  submissionTimeline,
  wasReplacedResponse,
  submit,
  type DraftInput,
  type PipelineDeps,
  type ScrubAnswer,
  type TimelineEntry,
} from "./lifecycle";
export { WORKER_STATUSES, dueBatches, heartbeatMs, leaseDue, releaseLeases, renewLeases, type BatchKey } from "./lease";
export { reschedule, type ScheduleChange, type ScheduleGuard } from "./schedule";
export { notePlatformId } from "./platform-id";
export {
  DECISION_STATUS,
  adjudicatedResponse,
  applyPlatformNews,
  decisionOf,
  isDecision,
  readResponses,
  type ApplyResult,
  type PlatformNews,
  type PlatformStatus,
  type ReadResponse,
} from "./apply";
export { CLAIM_IDENTIFIER_SYSTEM_BASE, claimIdentifierSystem } from "./identifiers";
export { claimTotalMinor } from "./claim-total";
export { claimUseOf, kindOfUse } from "./kinds";
export { draftFormSchema, submissionFormSchema, SUBMISSION_USES } from "./form-schema";
export { CPT_SYSTEM, defaultItemSystem, itemSystemsFor, itemSystemsOfProtocol, type PlatformProtocol } from "./care-setting";
export type { DraftFormValues, SubmissionFormInput, SubmissionFormValues, SubmissionItemInput, SubmissionUse } from "./form-schema";
export { lineTotalMinor, parseAmountMinor, parseQuantity } from "./form-money";
export { submissionFormOptions, type CareTeamOption } from "./form-options";
export { createClaimFromAuthorization, draftAuthorizationChange, draftChangeOfPayerAuthorization, saveDraft, submitForm } from "./form-service";
export { authorizationVersions, changeableVersion, currentVersionOf, type AuthorizationVersion } from "./authorization-versions";
export type { ChangeRequestResult, ClaimFromAuthorizationResult, DraftLinks, FieldErrors, SaveOptions, SaveResult, ServiceDeps } from "./form-service";
export { lastClinicalFacts, type ClinicalPrefill } from "./clinical-prefill";
export { EMPTY_CLINICAL, clinicalIssues, clinicalSchema, type ClinicalContext, type ClinicalValues } from "./clinical-schema";
export { loadDraftForForm, type DraftForForm } from "./drafts";
export { readDecision, responseView, statedAmounts, statedTotals, type DecisionLine, type DecisionView, type StatedAmounts } from "./decision";
export { labelDay, parseShortNumber, shortNumber, submissionLabel, submissionLabels, submissionNumber, type SubmissionLabel } from "./labels";
export { cursorParam, getSubmissionView, isSubmissionStatus, listSubmissions, parseCursor, type SubmissionListRow, type SubmissionView } from "./views";
export { APPEALABLE_STATUSES, appealClaim, appealInputSchema, appealableLines, appealsOf, fileAppeal, type AppealInput, type AppealResult, type AppealableLine } from "./appeals";
export {
  PAYER_CHANNEL,
  answerFingerprint,
  isPayerOriginated,
  payerLines,
  recordPayerAuthorization,
  type PayerAuthorizationInput,
  type PayerAuthorizationResult,
} from "./payer-authorization";
export {
  appealablePrescriptionLines,
  dispensesOf,
  getPrescription,
  listPrescriptions,
  refillsLeftOf,
  prescriptionLineSchema,
  prescriptionSchema,
  prescriptionViewOf,
  submitPrescription,
  verifiedPrescriptionsFor,
  type PrescriptionDeps,
  type PrescriptionFieldErrors,
  type PrescriptionFormInput,
  type PrescriptionLineView,
  type PrescriptionResult,
  type PrescriptionValues,
  type PrescriptionView,
} from "./prescriptions";
export { offlineEligibilityInUse } from "./offline-use";
// Reads asked by the layers below through their callers and the composition (docs/decisions/127, 128).
export { hasSubmissionsFor, submissionsOfPatient, type PatientSubmission } from "./reads/patients";
export { sentClaimReads } from "./reads/sent-claims";
