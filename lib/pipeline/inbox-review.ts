import { isUuid } from "@/lib/ids";
import type { Db } from "@/lib/db";
import { isFhirReadError, readClaimResponse, readMessage, type ClaimResponseView } from "@/lib/fhir";
import { InboxStateError, getInboxMessage, markMatched } from "@/lib/inbox";
import { applyPlatformNews, decisionOf, getSubmission, type PlatformStatus, type ReadResponse } from "@/lib/submissions";

/** The message cannot be matched: it carries no payer's decision, or the submission is not one it can belong to. */
export class InboxMatchError extends Error {
  override name = "InboxMatchError";
  constructor(readonly code: "not_found" | "no_decision" | "no_submission" | "settled") {
    super(code);
  }
}

/** The ClaimResponse a kept message carries (the resource a webhook announced, or the message's focus), read once. */
function decisionIn(row: { body: string; fetched: string | null }): ReadResponse | undefined {
  try {
    const candidates = row.fetched
      ? [JSON.parse(row.fetched) as Record<string, unknown>]
      : (() => {
          const { view } = readMessage(JSON.parse(row.body));
          return [...view.focus, ...view.entries.flatMap((e) => (e.resource ? [e.resource] : []))];
        })();
    const resource = candidates.find((r) => r.resourceType === "ClaimResponse");
    if (!resource) return undefined;
    return readClaimResponse(resource) as ReadResponse & { view: ClaimResponseView };
  } catch (error) {
    if (isFhirReadError(error) || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Billing matched a kept message to a submission ("Received, not matched" → Match): the payer's
 * decision it carries is applied to that submission as any answer is (same transitions, timeline
 * — source `user`, the message id cited — and live events; a decided one is reissued), and the
 * message is marked applied to it. Audited by the caller.
 */
export async function matchInboxMessage(db: Db, input: { inboxId: string; submissionId: string; userId: string; pollAfterMs?: number }): Promise<{ status: string; result: string }> {
  const row = await getInboxMessage(db, input.inboxId);
  if (!row) throw new InboxMatchError("not_found");
  if (row.status !== "unmatched" && row.status !== "failed") throw new InboxMatchError("settled");
  const response = decisionIn(row);
  if (!response) throw new InboxMatchError("no_decision");
  const submission = isUuid(input.submissionId) ? await getSubmission(db, input.submissionId) : undefined;
  if (!submission || submission.status === "draft" || submission.status === "queued") throw new InboxMatchError("no_submission");
  const status: PlatformStatus = decisionOf(response.view) ?? "pended";
  const applied = await applyPlatformNews({ db, pollAfterMs: input.pollAfterMs ?? 60_000 }, submission.id, {
    status,
    response,
    source: "user",
    detail: { messageId: row.messageId, matchedFromInbox: row.id },
  });
  try {
    await markMatched(db, row.id, { userId: input.userId, submissionId: submission.id });
  } catch (error) {
    if (error instanceof InboxStateError) throw new InboxMatchError("settled");
    throw error;
  }
  return { status: applied.submission?.status ?? submission.status, result: applied.result };
}
