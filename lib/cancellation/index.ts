/** Cancel / nullify and status check on demand (docs/decisions/046). */
export { CANCELLABLE, canCancel, canCheckStatus, cancelSubmission, checkSubmissionStatus, type CancelResult, type CancellationDeps, type StatusCheckOutcome, type StatusCheckResult } from "./service";
export { cancelSchema, type CancelInput } from "./schema";
export { cancelFailure, statusCheckFailure } from "./errors";
