import type { PlatformPort } from "@/lib/platform";
import { BASE_RULES, scrubClaim, type ScrubFinding } from "@/lib/scrubber";
import { noteOnTimeline, transition, type Submission } from "../states";
import { lockSubmission, submissionTimeline } from "../lifecycle";
import { auditPipeline } from "./audit";
import type { OutboxContext } from "./settle";

/*
 * Eligibility before sending (docs/decisions/124). The staff's submit never waits on the exchange:
 * it saves and queues in one transaction, its scrubber reading the eligibility answer already
 * stored. Here, just before a queued claim or authorization leaves, the outbox makes sure that
 * answer is recent (the eligibility module's check, injected by the process — lib/server — since
 * features sit above this module), then runs the scrubber's eligibility rules on the answer now
 * stored. An error the submit did not see (coverage not in force, a category the plan excludes)
 * stops it: `queued → rejected`, the rule's reason on its page, nothing sent. An exchange that
 * does not answer the check lets it go with a note on its timeline, as the submit used to.
 */

/** What the pre-send check found: `none` when the claim names nothing to check (no coverage of its patient, no date). */
export type PreSendOutcome = { kind: "recent" | "checked" } | { kind: "unconfirmed"; reason: string } | { kind: "none" };

/** The eligibility module's check, asked through the submission's own port (lib/eligibility `preSendEligibility`). */
export type PreSendEligibility = (queued: Pick<Submission, "patientNationalId" | "claim">, port: PlatformPort) => Promise<PreSendOutcome>;

/** The scrubber's rules whose check reads the eligibility answer. */
const ELIGIBILITY_RULES = new Set(BASE_RULES.filter((r) => r.check === "coverageInForce" || r.check === "serviceExcluded").map((r) => r.id));

const keyOf = (f: { rule: string; sequence?: number }) => `${f.rule}|${f.sequence ?? ""}`;

/** The findings the scrubber recorded when the submission was queued (those the sender saw, or overrode). */
async function findingsAtQueue(ctx: OutboxContext, id: string): Promise<Set<string>> {
  const queued = (await submissionTimeline(ctx.db, id)).filter((e) => e.fromStatus === "draft" && e.toStatus === "queued").at(-1);
  const scrub = queued?.detail?.scrub as { findings?: { rule: string; sequence?: number }[] } | undefined;
  return new Set((scrub?.findings ?? []).map(keyOf));
}

/**
 * Whether a leased, queued row may be sent now: true unless the fresh eligibility answer stopped it
 * (then it is rejected here, with its reasons). Appeals and prescriptions are sent as they are.
 */
export async function clearedToSend(ctx: OutboxContext, row: Submission, port: PlatformPort): Promise<boolean> {
  if (!ctx.preSendEligibility || (row.kind !== "claim" && row.kind !== "preauthorization") || row.appealOfId) return true;
  let outcome: PreSendOutcome;
  try {
    outcome = await ctx.preSendEligibility(row, port);
  } catch (error) {
    ctx.log(`[outbox] submission ${row.id}: the eligibility check before sending failed (${(error as Error).name})`);
    outcome = { kind: "unconfirmed", reason: "check_failed" };
  }
  if (outcome.kind === "none") return true;
  const at = ctx.now();
  if (outcome.kind === "unconfirmed") {
    await note(ctx, row, "eligibilityUnconfirmed", { reason: outcome.reason }, at);
    return true;
  }
  const result = await scrubClaim(ctx.db, { id: row.id, kind: row.kind, patientNationalId: row.patientNationalId, insurerId: row.insurerId, claim: row.claim, appealOfId: row.appealOfId, replacesId: row.replacesId }, at);
  const seen = await findingsAtQueue(ctx, row.id);
  const stops = result.errors.filter((f) => ELIGIBILITY_RULES.has(f.rule) && !seen.has(keyOf(f)));
  if (stops.length === 0) {
    if (outcome.kind === "checked") await note(ctx, row, "eligibilityChecked", {}, at);
    return true;
  }
  await stop(ctx, row, stops, result.ruleSet, at);
  return false;
}

/** A note on the timeline (and its live event) while the row is still queued and ours. */
async function note(ctx: OutboxContext, row: Submission, name: string, detail: Record<string, unknown>, at: Date): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await lockSubmission(tx, row.id);
    if (!current || current.status !== "queued" || current.leaseOwner !== ctx.owner) return;
    await noteOnTimeline(tx, current, { kind: "submission.note", note: name, source: "system", detail }, at);
  });
}

/** Stopped before sending: `queued → rejected` with the rules' reasons as its errors; nothing went to the exchange. */
async function stop(ctx: OutboxContext, row: Submission, findings: ScrubFinding[], ruleSet: string, at: Date): Promise<void> {
  let stopped = false;
  await ctx.db.transaction(async (tx) => {
    const current = await lockSubmission(tx, row.id);
    if (!current || current.status !== "queued" || current.leaseOwner !== ctx.owner) return;
    await transition(
      tx,
      current,
      "rejected",
      "system",
      { code: findings[0]!.code, stoppedBeforeSending: true, scrub: { ruleSet, findings: findings.map((f) => ({ rule: f.rule, code: f.code, severity: f.severity, ...(f.sequence !== undefined ? { sequence: f.sequence } : {}) })) } },
      { errors: findings.map((f) => ({ code: f.code, diagnostics: f.message.en, resolution: f.fix.en })), nextAttemptAt: null, leaseOwner: null, leaseUntil: null, decidedAt: at },
      at,
    );
    stopped = true;
  });
  if (!stopped) return;
  ctx.log(`[outbox] submission ${row.id} stopped before sending (${findings.map((f) => f.code).join(", ")})`);
  await auditPipeline(ctx.db, "outbox", "submission.stopped", row, "denied", { codes: findings.map((f) => f.code), ruleSet }, ctx.log);
}
