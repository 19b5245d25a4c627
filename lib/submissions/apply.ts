import type { ClaimResponse } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import type { Db, TransitionSource, Tx } from "@/lib/db";
import { submissions } from "@/lib/db";
import { type ClaimResponseView, type Decision, type Read } from "@/lib/fhir";
import { wasReplacedResponse } from "./lifecycle";
import { notePlatformId } from "./platform-id";
import { reschedule } from "./schedule";
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

/**
 * An answer as the platform port read it: the ClaimResponse received and the reader's view of it
 * (lib/fhir readClaimResponse). It travels whole from the port to the stored row and the screen, so
 * an answer is read once (docs/decisions/078).
 */
export type ReadResponse = Read<ClaimResponseView, ClaimResponse>;

/**
 * The state the reader's view of a ClaimResponse decides (per-item and overall decisions by R4
 * semantics and the national-exchange outcome extensions). Undefined while queued or pended, and
 * for an answer that did not read as R4 (no view).
 */
export function decisionOf(view: ClaimResponseView | undefined): DecisionStatus | "rejected" | undefined {
  return view ? DECISION_STATUS[view.decision] : undefined;
}

/** Picks the adjudicated answer of a claim from `GET /ClaimResponse?request=` (newest wins), by the views the port read. */
export function adjudicatedResponse(responses: readonly ReadResponse[]): ReadResponse | undefined {
  const decided = responses.filter((r) => decisionOf(r.view) !== undefined);
  decided.sort((a, b) => Date.parse(b.raw.meta?.lastUpdated ?? b.raw.created ?? "") - Date.parse(a.raw.meta?.lastUpdated ?? a.raw.created ?? ""));
  return decided[0];
}

/** The port's answers paired with their views (`data[i]` read as `views[i]`). */
export function readResponses(answer: { data: ClaimResponse[]; views: ClaimResponseView[] }): ReadResponse[] {
  return answer.data.flatMap((raw, i) => (answer.views[i] ? [{ raw, view: answer.views[i] }] : []));
}

export interface PlatformNews {
  status: PlatformStatus;
  /** The platform's Claim id when it gave one: stored, never required (decision 073). */
  platformId?: string;
  /** The adjudication as the port read it; a decision is applied only together with it. */
  response?: ReadResponse;
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
    if (isDecision(row.status) && news.response) {
      const reissued = await applyReissue(tx, row, news, at);
      if (reissued) return reissued;
    }
    if (isFinal(row.status)) return { result: "final" as const, submission: row };
    let changed = false;
    const release = { leaseOwner: null, leaseUntil: null };

    if (row.status === "queued") {
      // The platform took it: known by our identifier from now on; its own id is kept when given
      // and never needed (decision 073 — the national exchange answers identifier-only).
      const platformId = news.platformId ?? row.platformId ?? undefined;
      row = await transition(
        tx,
        row,
        "sent",
        news.source,
        { ...news.detail, ...(platformId ? { platformId } : {}) },
        { ...(platformId ? { platformId } : {}), sentAt: at, errors: null, nextAttemptAt: followUp, ...release },
        at,
      );
      changed = true;
    } else if (news.platformId && !row.platformId) {
      row = (await notePlatformId(tx, row.id, news.platformId)) ?? row;
    }
    if (row.status !== "sent" && row.status !== "pended") return { result: changed ? ("applied" as const) : ("unchanged" as const), submission: row };

    if (news.status === "pended" && row.status === "sent") {
      row = await transition(tx, row, "pended", news.source, news.detail, { nextAttemptAt: followUp, ...release }, at);
      return { result: "applied" as const, submission: row };
    }
    if (isDecision(news.status) || news.status === "rejected") {
      const view = news.response?.view;
      const decision = view ? (DECISION_STATUS[view.decision] ?? news.status) : undefined;
      if (!news.response || !view || !decision) {
        // Known outcome, adjudication not fetched yet: let the poller fetch it now.
        const due = await reschedule(tx, row.id, { nextAttemptAt: news.retryResponseAt ?? at, releaseLease: true });
        return { result: "needs_response" as const, submission: due };
      }
      row = await transition(
        tx,
        row,
        decision,
        news.source,
        news.detail,
        {
          response: news.response.raw as unknown as Record<string, unknown>,
          responseView: view as unknown as Record<string, unknown>,
          decidedAt: at,
          nextAttemptAt: null,
          ...release,
          // A ClaimResponse with outcome `error`: its errors are the reasons of the rejection.
          ...(decision === "rejected" ? { errors: rejectionReasons(view) } : {}),
        },
        at,
      );
      return { result: "applied" as const, submission: row };
    }
    // queued / pended again / cancelled (not produced): nothing new; follow up later.
    const touched = await reschedule(tx, row.id, { nextAttemptAt: followUp, releaseLease: true });
    return { result: changed ? ("applied" as const) : ("unchanged" as const), submission: touched };
  });
}

/** The same ClaimResponse as the one stored (a repeat delivery): by its id, else by its whole content. */
function sameResponse(stored: Record<string, unknown> | null, received: ClaimResponse): boolean {
  if (!stored) return false;
  if (typeof stored.id === "string" && typeof received.id === "string") return stored.id === received.id;
  return JSON.stringify(stored) === JSON.stringify(received);
}

/**
 * A decided submission's payer sent another decision (a reissue: the reissue-reason extension, or
 * simply a second, different answer — docs/decisions/097). It becomes the current decision; the timeline
 * keeps the earlier one (its status, decision and benefit in the entry's detail) and names the
 * reason. Reason `cancel` withdraws it (cancelled). A repeat of the stored answer changes nothing.
 */
async function applyReissue(tx: Tx, row: Submission, news: PlatformNews, at: Date): Promise<{ result: ApplyResult; submission: Submission } | undefined> {
  const response = news.response!;
  const view = response.view;
  if (sameResponse(row.response, response.raw)) return { result: "unchanged", submission: row };
  // An earlier decision delivered again (a replay, a late copy): the later one stands.
  if (typeof response.raw.id === "string" && (await wasReplacedResponse(tx, row.id, response.raw.id))) return { result: "unchanged", submission: row };
  const reason = view.reissueReason;
  const decided = DECISION_STATUS[view.decision];
  const to = reason?.code === "cancel" ? "cancelled" : decided;
  // Pended or an error reply after a decision is no new decision: the stored one stands.
  if (!to || to === "rejected") return undefined;
  const earlier = row.responseView as Partial<ClaimResponseView> | null;
  const previous = {
    status: row.status,
    ...(typeof row.response?.id === "string" ? { responseId: row.response.id } : {}),
    ...(earlier?.decision ? { decision: earlier.decision } : {}),
    ...(earlier?.total?.benefit?.minor !== undefined ? { benefitMinor: earlier.total.benefit.minor } : {}),
  };
  const submission = await transition(
    tx,
    row,
    to,
    news.source,
    {
      ...news.detail,
      reissue: { ...(reason?.code ? { code: reason.code } : {}), ...(reason?.display ?? reason?.text ? { words: reason.display ?? reason.text } : {}) },
      previous,
      ...(view.total.benefit?.minor !== undefined ? { benefitMinor: view.total.benefit.minor } : {}),
    },
    { response: response.raw as unknown as Record<string, unknown>, responseView: view as unknown as Record<string, unknown>, decidedAt: at, nextAttemptAt: null, leaseOwner: null, leaseUntil: null },
    at,
  );
  return { result: "applied", submission };
}

/** ClaimResponse.error[] → the stored reasons of a rejection (code, the element it names, words). */
function rejectionReasons(view: ClaimResponseView): NonNullable<Submission["errors"]> {
  const reasons = view.errors.map((e) => ({
    ...(e.code?.code ? { code: e.code.code } : {}),
    ...(e.element ? { field: e.element } : {}),
    diagnostics: e.code?.display ?? e.code?.text ?? view.disposition ?? "The exchange could not process this submission",
  }));
  return reasons.length > 0 ? reasons : [{ diagnostics: view.disposition ?? "The exchange could not process this submission" }];
}
