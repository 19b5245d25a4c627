import { and, eq, sql } from "drizzle-orm";
import { audit, type AuditActor } from "@/lib/audit";
import { setSubmissionAttachments } from "@/lib/attachments";
import type { Db, SubmissionKind, Tx } from "@/lib/db";
import { submissions } from "@/lib/db";
import { claimTotalMinor } from "./claim-total";
import type { CheckedClaim } from "./claim-rules";
import { insertDraft, queueDraft, ScrubBlockedError, type ScrubAnswer } from "./lifecycle";
import type { TransitionSource } from "@/lib/db";
import type { Submission } from "./states";

/*
 * THE intake (docs/decisions/129): every way a submission enters — the claim and authorization
 * forms, "submit selected", the prescription form, the exchange API, the gateway's FHIR endpoint
 * and agents, the MCP tools — ends here, with a Claim that passed `checkClaim` (claim-rules.ts).
 * One transaction writes the row (a new one, or the draft being sent), its attachments, the
 * queueing with the scrubber's verdict and the submit's one audit entry; a machine caller's
 * replay (same caller, same identifier) is found under a lock in the same transaction.
 */

/** Who sends, as the audit names them; `action` is the submit's audit verb (`claim.submit`, `exchange.claim.submit` …). */
export interface IntakeAudit {
  actor: AuditActor;
  action: string;
  requestId?: string;
  ip?: string;
  /** Patient-free details of the entry (counts, totals, the kind; never names or numbers of a patient). */
  details: Record<string, unknown>;
}

/** What a submission is made of when it enters. */
export interface IntakeEntry {
  kind: SubmissionKind;
  claim: CheckedClaim;
  /** The patient's national ID / Iqama. Patient data: never logged. */
  patientNationalId: string;
  insurerId?: string;
  /** `submissions.channel`: `ui`, `exchange-api`, `gateway`. */
  channel: string;
  /** A staff member's user id, or the calling client (`org:<id>`, `gateway:<token id>`), never a secret. */
  createdBy?: string;
  /** The form's values, kept to reopen it (screens only). */
  form?: Record<string, unknown>;
  attachmentIds?: readonly string[];
  links?: { replacesId?: string; authorizationId?: string; appealOfId?: string };
  /** The saved draft being sent (the form's Submit on a draft): rewritten with this entry, then queued. */
  draft?: Pick<Submission, "id">;
  /**
   * A machine caller's own business identifier (docs/decisions/032): the same caller (channel and
   * createdBy) sending the same kind under it again gets the first submission back, not a second.
   */
  replayKey?: { system?: string; value: string };
  /** "Submit selected": the batch the claim left in (`form.batch`, lib/claims batch progress). */
  batchId?: string;
  /** The facility it goes out from (decision 049); absent: the staff member's own, else the main one. */
  facilityId?: string | null;
}

export interface IntakeOptions {
  source: Extract<TransitionSource, "user" | "api">;
  audit: IntakeAudit;
  /** The sender's answer to the scrubber: warnings acknowledged, an override reason for its errors (billing only, decided by the caller). */
  scrub: { acknowledgeWarnings?: boolean; overrideReason?: string; overrideRefused?: boolean };
  /**
   * When the scrubber stops it: `keep-draft` (the screens — the draft stays, with the
   * `scrub_blocked` audit entry, for staff to fix) or `store-nothing` (machine APIs — the
   * transaction is rolled back; the caller fixes and sends again).
   */
  whenBlocked: "keep-draft" | "store-nothing";
  now: Date;
  /** What the door does beside, in the same transaction, once it is queued (an appeal's note on the appealed claim). */
  alongside?: (tx: Tx, queued: Submission) => Promise<void>;
}

export type IntakeOutcome =
  | { outcome: "queued"; submission: Submission }
  | { outcome: "replay"; submission: Submission }
  | { outcome: "blocked"; error: ScrubBlockedError; draftId?: string }
  | { outcome: "not_draft" };

/** The audit verb beside a submit's: `claim.submit` → `claim.scrub_blocked`. */
const besideSubmit = (action: string, verb: string) => `${action.replace(/\.submit$/, "")}.${verb}`;

/**
 * Takes one submission in: writes it, queues it through the scrubber and audits it — one
 * transaction, whatever the outcome (see `IntakeOptions.whenBlocked`).
 */
export async function intake(db: Db, entry: IntakeEntry, options: IntakeOptions): Promise<IntakeOutcome> {
  const { audit: who } = options;
  const override = options.scrub.overrideReason?.trim().slice(0, 500) || undefined;
  const record = (tx: Tx, action: string, id: string, outcome: "success" | "failure", details: Record<string, unknown>) =>
    audit(tx, { actor: who.actor, action, target: { type: "submission", id }, outcome, requestId: who.requestId, ip: who.ip, details });
  const answer = (id: string): ScrubAnswer => ({
    acknowledgeWarnings: options.scrub.acknowledgeWarnings === true,
    ...(override ? { overrideReason: override } : {}),
    // An override of the scrubber's errors is audited with its reason, in this transaction.
    onPass: async (tx, result, overridden) => {
      if (!overridden) return;
      await record(tx, besideSubmit(who.action, "scrub_override"), id, "success", {
        reason: override,
        ruleSet: result.ruleSet,
        errors: result.errors.map((f) => ({ rule: f.rule, code: f.code, ...(f.sequence !== undefined ? { sequence: f.sequence } : {}) })),
      });
    },
  });
  try {
    return await db.transaction(async (tx): Promise<IntakeOutcome> => {
      if (entry.replayKey) {
        const first = await replayOf(tx, entry, entry.replayKey);
        if (first) {
          await record(tx, who.action, first.id, "success", { ...who.details, replay: true });
          return { outcome: "replay", submission: first };
        }
      }
      const id = await writeDraft(tx, { ...entry, source: options.source }, options.now);
      if (id === "not_draft") return { outcome: "not_draft" };
      try {
        const queued = await queueDraft(tx, id, options.source, options.now, answer(id));
        if (entry.batchId) await tx.update(submissions).set({ form: { ...entry.form, batch: entry.batchId } }).where(eq(submissions.id, id));
        await options.alongside?.(tx, queued);
        await record(tx, who.action, id, "success", { ...who.details, ...(entry.replayKey ? { replay: false } : {}) });
        return { outcome: "queued", submission: queued };
      } catch (error) {
        if (!(error instanceof ScrubBlockedError) || options.whenBlocked === "store-nothing") throw error;
        await record(tx, besideSubmit(who.action, "scrub_blocked"), id, "failure", {
          ruleSet: error.result.ruleSet,
          findings: error.result.findings.map((f) => ({ rule: f.rule, code: f.code, severity: f.severity })),
          ...(options.scrub.overrideRefused ? { overrideRefused: true } : {}),
        });
        return { outcome: "blocked", error, draftId: id };
      }
    });
  } catch (error) {
    // store-nothing: the rollback undid the row; the caller answers with the findings.
    if (error instanceof ScrubBlockedError) return { outcome: "blocked", error };
    throw error;
  }
}

/** The first submission a machine caller sent under this identifier, found under a lock on (caller, identifier). */
async function replayOf(tx: Tx, entry: IntakeEntry, key: { system?: string; value: string }): Promise<Submission | undefined> {
  const createdBy = entry.createdBy ?? "";
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${entry.channel}|${createdBy}|${key.system ?? ""}|${key.value}`}))`);
  const [first] = await tx
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.channel, entry.channel),
        eq(submissions.createdBy, createdBy),
        eq(submissions.kind, entry.kind),
        sql`${submissions.claim} -> 'identifier' @> ${JSON.stringify([key])}::jsonb`,
      ),
    )
    .limit(1);
  return first;
}

/** What a draft is written with: the form's save and every intake (an entry without its Claim's check, replay or batch). */
export type DraftWrite = Omit<IntakeEntry, "claim" | "replayKey" | "batchId"> & {
  claim: Record<string, unknown>;
  /** Who made it, on its first timeline entry (`user` from the screens, `api` from a machine caller). */
  source?: TransitionSource;
};

/**
 * Writes a draft — the one being edited (only while it is still a draft: `not_draft` otherwise) or
 * a new one — with its attachments, inside the caller's transaction: the one write path of a
 * draft's save and of every intake (docs/decisions/062).
 */
export async function writeDraft(tx: Tx, draft: DraftWrite, at: Date): Promise<string | "not_draft"> {
  if (draft.draft) {
    const money = claimTotalMinor(draft.claim);
    const [updated] = await tx
      .update(submissions)
      .set({
        form: draft.form ?? null,
        claim: draft.claim,
        patientNationalId: draft.patientNationalId,
        insurerId: draft.insurerId ?? null,
        totalMinor: money?.totalMinor ?? null,
        currency: money?.currency ?? null,
        updatedAt: at,
      })
      .where(and(eq(submissions.id, draft.draft.id), eq(submissions.status, "draft")))
      .returning({ id: submissions.id });
    if (!updated) return "not_draft";
    if (draft.attachmentIds) await setSubmissionAttachments(tx, updated.id, draft.attachmentIds);
    return updated.id;
  }
  const row = await insertDraft(
    tx,
    {
      kind: draft.kind,
      patientNationalId: draft.patientNationalId,
      ...(draft.insurerId ? { insurerId: draft.insurerId } : {}),
      claim: draft.claim,
      ...(draft.form ? { form: draft.form } : {}),
      channel: draft.channel,
      ...(draft.createdBy ? { createdBy: draft.createdBy } : {}),
      ...draft.links,
      ...(draft.source ? { source: draft.source } : {}),
      ...(draft.facilityId !== undefined ? { facilityId: draft.facilityId } : {}),
    },
    at,
  );
  if (draft.attachmentIds) await setSubmissionAttachments(tx, row.id, draft.attachmentIds);
  return row.id;
}
