import type { ClaimResponse } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import type { Db, TransitionSource } from "@/lib/db";
import { submissions } from "@/lib/db";
import { isFhirReadError, readClaimResponse, type ClaimResponseView, type Decision } from "@/lib/fhir";
import { DECISION_STATUSES, isFinal, transition, type DecisionStatus, type Submission, type TransitionDetail } from "./states";

/** Processing statuses the platform reports (Claim extension, webhook `status`). */
export type PlatformStatus = "queued" | "pended" | "complete" | "partial" | "denied" | "cancelled" | "rejected";

export function isDecision(status: string | undefined): status is DecisionStatus {
  return (DECISION_STATUSES as readonly string[]).includes(status ?? "");
}

/** The reader's decision → the submission's state. `pended` is no decision yet; `error` is a rejection. */
export const DECISION_STATUS: Record<Decision, DecisionStatus | "rejected" | undefined> = {
  approved: "complete",
  "partly-approved": "partial",
  denied: "denied",
  pended: undefined,
  error: "rejected",
};

/** Reads a stored or received ClaimResponse; undefined when it is not valid R4 (never stored as a decision). */
export function responseView(response: ClaimResponse | Record<string, unknown> | null | undefined): ClaimResponseView | undefined {
  if (!response) return undefined;
  try {
    return readClaimResponse(response).view;
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}

/**
 * The state a ClaimResponse decides (lib/fhir readClaimResponse: per-item and overall decisions by
 * R4 semantics and the national-exchange outcome extensions). Undefined while queued or pended.
 */
export function decisionOf(response: ClaimResponse): DecisionStatus | "rejected" | undefined {
  const view = responseView(response);
  return view ? DECISION_STATUS[view.decision] : undefined;
}

/** Picks the adjudicated response of a claim from `GET /ClaimResponse?request=` (newest wins). */
export function adjudicatedResponse(responses: ClaimResponse[]): ClaimResponse | undefined {
  const decided = responses.filter((r) => decisionOf(r) !== undefined);
  decided.sort((a, b) => Date.parse(b.meta?.lastUpdated ?? b.created ?? "") - Date.parse(a.meta?.lastUpdated ?? a.created ?? ""));
  return decided[0];
}

export interface PlatformNews {
  status: PlatformStatus;
  /** The platform's Claim id; required when the submission is still `queued` on our side. */
  platformId?: string;
  /** The adjudication; a decision is applied only together with it. */
  response?: ClaimResponse;
  source: TransitionSource;
  detail?: TransitionDetail;
  /** When to look again if a decision came without its ClaimResponse (default: now). */
  retryResponseAt?: Date;
}

export type ApplyResult = "applied" | "unchanged" | "needs_response" | "final";

/**
 * Applies what the platform says about a submission — from the POST answer, a reconciliation,
 * a webhook or the poller — in one transaction, whatever order the news arrives in: never moves a
 * submission backwards or out of a final state, and records a decision only with its
 * ClaimResponse. When a decision arrives without one, the submission is made due so the poller
 * fetches it (`needs_response`). Sent/pended submissions are re-read after `pollAfterMs` of silence.
 */
export async function applyPlatformNews(
  deps: { db: Db; clock?: () => Date; pollAfterMs: number },
  submissionId: string,
  news: PlatformNews,
): Promise<{ result: ApplyResult; submission?: Submission }> {
  const at = (deps.clock ?? (() => new Date()))();
  const followUp = new Date(at.getTime() + deps.pollAfterMs);
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(submissions).where(eq(submissions.id, submissionId)).for("update");
    if (!locked) return { result: "unchanged" as const };
    let row: Submission = locked;
    if (isFinal(row.status)) return { result: "final" as const, submission: row };
    let changed = false;
    const release = { leaseOwner: null, leaseUntil: null };

    if (row.status === "queued") {
      const platformId = news.platformId ?? row.platformId;
      if (!platformId) return { result: "unchanged" as const, submission: row };
      row = await transition(tx, row, "sent", news.source, { ...news.detail, platformId }, { platformId, sentAt: at, errors: null, nextAttemptAt: followUp, ...release }, at);
      changed = true;
    }
    if (row.status !== "sent" && row.status !== "pended") return { result: changed ? ("applied" as const) : ("unchanged" as const), submission: row };

    if (news.status === "pended" && row.status === "sent") {
      row = await transition(tx, row, "pended", news.source, news.detail, { nextAttemptAt: followUp, ...release }, at);
      return { result: "applied" as const, submission: row };
    }
    if (isDecision(news.status) || news.status === "rejected") {
      const view = responseView(news.response);
      const decision = view ? (DECISION_STATUS[view.decision] ?? news.status) : undefined;
      if (!news.response || !decision) {
        // Known outcome, adjudication not fetched yet: let the poller fetch it now.
        const [due] = await tx
          .update(submissions)
          .set({ nextAttemptAt: news.retryResponseAt ?? at, ...release })
          .where(eq(submissions.id, row.id))
          .returning();
        return { result: "needs_response" as const, submission: due };
      }
      row = await transition(
        tx,
        row,
        decision,
        news.source,
        news.detail,
        {
          response: news.response as unknown as Record<string, unknown>,
          responseView: view as unknown as Record<string, unknown>,
          decidedAt: at,
          nextAttemptAt: null,
          ...release,
          // A ClaimResponse with outcome `error`: its errors are the reasons of the rejection.
          ...(decision === "rejected" ? { errors: rejectionReasons(view!) } : {}),
        },
        at,
      );
      return { result: "applied" as const, submission: row };
    }
    // queued / pended again / cancelled (not produced): nothing new; follow up later.
    const [touched] = await tx.update(submissions).set({ nextAttemptAt: followUp, ...release }).where(eq(submissions.id, row.id)).returning();
    return { result: changed ? ("applied" as const) : ("unchanged" as const), submission: touched };
  });
}

/** ClaimResponse.error[] → the stored reasons of a rejection (code, the element it names, words). */
function rejectionReasons(view: ClaimResponseView): NonNullable<Submission["errors"]> {
  const reasons = view.errors.map((e) => ({
    ...(e.code?.code ? { code: e.code.code } : {}),
    ...(e.element ? { field: e.element } : {}),
    diagnostics: e.code?.display ?? e.code?.text ?? view.disposition ?? "The platform could not process this submission",
  }));
  return reasons.length > 0 ? reasons : [{ diagnostics: view.disposition ?? "The platform could not process this submission" }];
}
