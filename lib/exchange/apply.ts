import type { ClaimResponse } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { submissions, type TransitionSource } from "@/lib/db/schema";
import { claimProcessingStatus, CODE_SYSTEMS } from "@/lib/fhir";
import { DECISION_STATUSES, isFinal, transition, type DecisionStatus, type Submission, type TransitionDetail } from "./states";

/** Processing statuses the platform reports (Claim extension, webhook `status`). */
export type PlatformStatus = "queued" | "pended" | "complete" | "partial" | "denied" | "cancelled";

export function isDecision(status: string | undefined): status is DecisionStatus {
  return (DECISION_STATUSES as readonly string[]).includes(status ?? "");
}

/**
 * The decision a ClaimResponse carries: the platform's processing-status extension when present
 * (the sandbox marks denials there; `outcome` stays `complete`), else `outcome: partial`, else
 * `denied` when no item got any benefit, else `complete`. Undefined while still queued/pended.
 */
export function decisionOf(response: ClaimResponse): DecisionStatus | undefined {
  const ext = claimProcessingStatus(response);
  if (ext) return isDecision(ext) ? ext : undefined;
  if (response.outcome === "queued") return undefined;
  if (response.outcome === "partial") return "partial";
  if (response.outcome !== "complete") return undefined;
  const benefits = (response.item ?? []).flatMap((item) =>
    (item.adjudication ?? []).filter((a) => a.category?.coding?.some((c) => c.system === CODE_SYSTEMS.adjudication && c.code === "benefit")),
  );
  if (benefits.length > 0 && benefits.every((a) => (a.amount?.value ?? 0) === 0)) return "denied";
  return "complete";
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
    if (isDecision(news.status)) {
      const decision = news.response ? (decisionOf(news.response) ?? news.status) : undefined;
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
        { response: news.response as unknown as Record<string, unknown>, decidedAt: at, nextAttemptAt: null, ...release },
        at,
      );
      return { result: "applied" as const, submission: row };
    }
    // queued / pended again / cancelled (not produced): nothing new; follow up later.
    const [touched] = await tx.update(submissions).set({ nextAttemptAt: followUp, ...release }).where(eq(submissions.id, row.id)).returning();
    return { result: changed ? ("applied" as const) : ("unchanged" as const), submission: touched };
  });
}
