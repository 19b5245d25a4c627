import { AppError } from "@/lib/errors";
import type { SubmissionStatus } from "@/lib/db";
import type { CancelResult, StatusCheckOutcome } from "./service";

/**
 * What a machine API answers when a cancellation could not be made (the exchange API and the
 * gateway say the same): 409 when the submission is not at the platform or already final, 404 when
 * it is gone, 502 when the platform did not answer (nothing changed; safe to send again).
 */
export function cancelFailure(result: Extract<CancelResult, { ok: false }>, submission: { status: SubmissionStatus; platformId: string | null }): AppError {
  if (result.error === "not_cancellable") {
    return new AppError("conflict", submission.platformId ? `A submission in status ${submission.status} cannot be cancelled.` : "Not at the platform yet: nothing to cancel.", { reason: "not_cancellable" });
  }
  if (result.error === "not_found") return new AppError("not_found", "No such submission.", { reason: "unknown_submission" });
  return new AppError("platform_error", `The platform did not answer the cancellation${result.reason ? `: ${result.reason}` : "."} Nothing changed; it is safe to send again.`, { reason: "platform" });
}

/** The same for a status check: 409 before the platform holds the submission, 404, 502. */
export function statusCheckFailure(result: Extract<StatusCheckOutcome, { ok: false }>): AppError {
  if (result.error === "not_sent") return new AppError("conflict", "Not at the platform yet: nothing to check.", { reason: "not_sent" });
  if (result.error === "not_found") return new AppError("not_found", "No such submission.", { reason: "unknown_submission" });
  return new AppError("platform_error", `The platform did not answer the status check${result.reason ? `: ${result.reason}` : "."}`, { reason: "platform" });
}
