/** Cancel / nullify and status check on demand (issue 18 items 2 and 3). */
export { CANCELLABLE, canCancel, cancelSubmission, checkSubmissionStatus, type CancelResult, type CancellationCaller, type CancellationDeps, type StatusCheckOutcome, type StatusCheckResult } from "./service";
export { cancelSchema, type CancelInput } from "./schema";
export { cancelFailure, statusCheckFailure } from "./errors";
