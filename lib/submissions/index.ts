/**
 * lib/submissions: a submission — a prior authorization or a claim — from its form to its answer
 * (docs/decisions/062). It owns the `submissions` table (the only module that writes it), the
 * form's values and schemas, the Claim built from them, the life cycle (states, timeline, live
 * event of each change), the leases and schedule, and the views the pages show. Its outbox
 * (`outbox/`: the worker that sends queued submissions and follows sent ones up) carries a
 * submission from saved to answered; lib/pipeline receives what the exchange sends on its own
 * (webhooks, polls, the inbox) and starts this outbox. lib/authorizations and lib/claims are
 * feature layers on it. Other modules import only this file (docs/decisions/041-module-entries.md).
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
  markCancelled,
  submit,
  type DraftInput,
  type PipelineDeps,
  type ScrubAnswer,
  type TimelineEntry,
} from "./lifecycle";
export { WORKER_STATUSES, dueBatches, heartbeatMs, leaseDue, releaseLeases, renewLeases, type BatchKey } from "./lease";
export { reschedule, type ScheduleChange, type ScheduleGuard } from "./schedule";
// The outbox (outbox/, README.md): sends queued submissions and follows sent ones up.
export { startOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from "./outbox/worker";
export type { PreSendEligibility, PreSendOutcome } from "./outbox/eligibility";
export { pollSubmission } from "./outbox/poll";
export { decisionRetries } from "./outbox/follow-up";
export { backoffDelayMs, type BackoffPolicy } from "./outbox/backoff";
export { classifyFailure, type CallFailure } from "./outbox/call-failure";
export { auditPipeline } from "./outbox/audit";
export { findSubmissionByRequest } from "./lifecycle";
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
// The one intake (docs/decisions/129): every way in checks the Claim with checkClaim and enters through intake.
export { checkClaim, claimRuleProblem, MAX_TOTAL_MINOR, type CheckedClaim, type ClaimRuleContext, type ClaimRuleProblem } from "./claim-rules";
export { intake, type IntakeAudit, type IntakeEntry, type IntakeOptions, type IntakeOutcome } from "./intake";
export {
  API_CLAIM_ACCEPTED_STATUS,
  API_CLAIM_REPLAY_STATUS,
  ApiClaimAcknowledgementSchema,
  apiClaimAcknowledgement,
  callerIdentifier,
  claimOutcomeOf,
  submitApiClaim,
  validateApiClaim,
  type ApiClaimRules,
  type ApiClaimSubmission,
} from "./api-intake";
/** The claims pages' reads (lib/claims): the list, its counts, the work queue's candidates, a claim's links and matches. */
export {
  CLAIM_SORTS,
  appealCandidates,
  authorizationForClaim,
  claimIdsAmong,
  claimInsurerIds,
  claimPageRows,
  claimStatusCounts,
  claimsByPlatformIdOrIdentifier,
  claimsToFix,
  getClaim,
  isClaimId,
  replacementLinks,
  type AppealCandidate,
  type ClaimFilters,
  type ClaimLink,
  type ClaimPageQuery,
  type ClaimSort,
  type ReconcileMatch,
} from "./reads/claims";
/** The managers' dashboard's read (lib/dashboard): the live board's feed with the patient's name. */
export { managerLiveFeed, type LiveFeedRow } from "./reads/dashboard";
/** The deadlines' reads (lib/deadlines): open claims with the day of their last change, claims with information due. */
export { claimsWithInformationDue, openClaims, type InformationDue, type OpenClaim } from "./reads/deadlines";
/** The information-requests queue's reads (lib/information-requests): requests with their submission and patient, the open counts. */
export {
  INFORMATION_REQUEST_FILTERS,
  informationRequestQueue,
  informationRequestSubmissionKind,
  openInformationRequestCounts,
  type InformationRequestFilter,
  type InformationRequestQueueRow,
} from "./reads/information-requests";
/** The gateway's reads (lib/gateway): the timeline as notifications, a patient's counts, a submission by the identifier its caller knows. */
export {
  latestSubmissionByClaimIdentifier,
  newestTimelineEventId,
  submissionByIdentifier,
  submissionCountsOfPatient,
  timelineEventsAfter,
  type MadeBy,
  type TimelineFeedRow,
} from "./reads/gateway";
/** The status of each of some submissions (the messaging bench waits on them). */
export { statusesOf } from "./reads/statuses";
/** The scrubber's and the authorization usage's reads (same layer, called from here: handed over by lifecycle.ts as it loads). */
export { scrubReads } from "./reads/scrubber";
export { authorizationUsageReads } from "./reads/authorization-usage";
// Reads asked by the layers below through their callers and the composition (docs/decisions/127, 128).
export { hasSubmissionsFor, submissionsOfPatient, type PatientSubmission } from "./reads/patients";
export { sentClaimReads } from "./reads/sent-claims";
/** A payer's information request, kept by its submission's owner (docs/decisions/128): recorded, found, marked as it is answered and acknowledged. */
export {
  clearInformationRequestSending,
  getInformationRequest,
  informationRequestAcknowledged,
  markInformationRequestAcknowledged,
  markInformationRequestAnswered,
  markInformationRequestSending,
  recordInformationRequest,
  type InformationRequest,
  type InformationRequestAnswer,
  type ReceivedInformationRequest,
} from "./information-requests";
