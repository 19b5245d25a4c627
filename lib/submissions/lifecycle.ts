import { and, asc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Db, SubmissionKind, TransitionSource, Tx } from "@/lib/db";
import { submissionEvents, submissions, users } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { scrubClaim, type ScrubFinding, type ScrubResult } from "@/lib/scrubber";
import { provideScrubReads } from "@/lib/scrubber";
import { provideAuthorizationUsageReads } from "@/lib/authorization-usage";
import { authorizationUsageReads } from "./reads/authorization-usage";
import { scrubReads } from "./reads/scrubber";
import { claimIdentifierSystem, newClaimIdentifierValue } from "./identifiers";
import { claimTotalMinor } from "./claim-total";
import { claimUseOf } from "./kinds";
import { appendTimeline, emitLive, transition, IllegalTransitionError, type Submission, type TransitionDetail } from "./states";

// The scrubber (run by queueDraft below) and the authorization usage (the form's, the scrubber's)
// read the submissions through this module's reads; they cannot import this module back (one
// layer, no cycle: docs/decisions/127), so it hands the reads over as it loads.
provideScrubReads(scrubReads);
provideAuthorizationUsageReads(authorizationUsageReads);

export class SubmissionNotFoundError extends Error {
  override name = "SubmissionNotFoundError";
  constructor(readonly submissionId: string) {
    super(`no submission ${submissionId}`);
  }
}

export interface DraftInput {
  kind: SubmissionKind;
  /** The patient's national ID / Iqama (what the exchange calls the patient by). Patient data: never logged. */
  patientNationalId: string;
  insurerId?: string;
  /** The FHIR Claim to send; `identifier[0]` is replaced when the submission is queued. */
  claim: Record<string, unknown>;
  channel?: string;
  createdBy?: string;
  replacesId?: string;
  authorizationId?: string;
  /** An appeal (docs/decisions/081): the decided claim it appeals. */
  appealOfId?: string;
  source?: TransitionSource;
  /**
   * The facility it goes out from (decision 049). Absent: a staff member's own facility when
   * `createdBy` is a user, else the main facility (null).
   */
  facilityId?: string | null;
}

export interface PipelineDeps {
  db: Db;
  clock?: () => Date;
}

const nowOf = (deps: PipelineDeps) => (deps.clock ?? (() => new Date()))();

/** Stores a new submission as a draft (nothing is sent). */
export async function createDraft(deps: PipelineDeps, input: DraftInput): Promise<Submission> {
  const at = nowOf(deps);
  return deps.db.transaction((tx) => insertDraft(tx, input, at));
}

/** createDraft inside the caller's transaction (a form's save or submit is one transaction). */
export async function insertDraft(tx: Tx, input: DraftInput & { form?: Record<string, unknown> }, at: Date): Promise<Submission> {
  if (input.claim.use !== undefined && input.claim.use !== claimUseOf(input.kind)) {
    throw new Error(`Claim.use ${String(input.claim.use)} does not match the submission kind ${input.kind}`);
  }
  const money = claimTotalMinor(input.claim);
  let facilityId = input.facilityId ?? null;
  if (input.facilityId === undefined && input.createdBy && isUuid(input.createdBy)) {
    const [user] = await tx.select({ facilityId: users.facilityId }).from(users).where(eq(users.id, input.createdBy)).limit(1);
    facilityId = user?.facilityId ?? null;
  }
  const [row] = await tx
    .insert(submissions)
    .values({
      kind: input.kind,
      status: "draft",
      patientNationalId: input.patientNationalId,
      insurerId: input.insurerId ?? null,
      claim: { ...input.claim, use: claimUseOf(input.kind) },
      ...(input.form ? { form: input.form } : {}),
      totalMinor: money?.totalMinor ?? null,
      currency: money?.currency ?? null,
      channel: input.channel ?? "ui",
      createdBy: input.createdBy ?? null,
      replacesId: input.replacesId ?? null,
      authorizationId: input.authorizationId ?? null,
      appealOfId: input.appealOfId ?? null,
      facilityId,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await appendTimeline(tx, { submissionId: row!.id, from: null, to: "draft", source: input.source ?? "user", at });
  await emitLive(tx, row!, { from: null, source: input.source ?? "user", at });
  return row!;
}

/**
 * The scrubber refused to queue a submission (docs/decisions/090): errors (and, unless the sender
 * chose "Send anyway", warnings). Thrown inside the queueing transaction, so nothing of the
 * submit is written; the caller keeps the draft and shows the findings.
 */
export class ScrubBlockedError extends Error {
  override name = "ScrubBlockedError";
  constructor(readonly result: ScrubResult) {
    super(`the scrubber found ${result.errors.length} error(s) and ${result.warnings.length} warning(s)`);
  }
}

/** How a sender answered the scrubber's findings. */
export interface ScrubAnswer {
  /** The warnings were shown and the sender chose "Send anyway" (the machine APIs: always — nobody to ask). */
  acknowledgeWarnings?: boolean;
  /** Billing staff send despite errors, with their reason (checked and audited by the caller). */
  overrideReason?: string;
  /** Called in the transaction when the submission passes, with what the scrubber found (the caller audits an override). */
  onPass?: (tx: Tx, result: ScrubResult, overridden: boolean) => Promise<void>;
}

const findingSummary = (f: ScrubFinding) => ({ rule: f.rule, code: f.code, severity: f.severity, ...(f.sequence !== undefined ? { sequence: f.sequence } : {}) });

/**
 * Hands a draft to the outbox: fixes the business identifier (exactly once — a submission that
 * already has one keeps it) and makes it due now.
 */
export async function queue(deps: PipelineDeps, id: string, source: TransitionSource = "user", answer: ScrubAnswer = { acknowledgeWarnings: true }): Promise<Submission> {
  const at = nowOf(deps);
  return deps.db.transaction((tx) => queueDraft(tx, id, source, at, answer));
}

/**
 * queue inside the caller's transaction. THE one place every channel (form, batch, exchange API,
 * gateway) passes before a submission is queued: the scrubber runs here (docs/decisions/090), and
 * what it found, and how the sender answered, goes on the timeline entry of the queueing.
 */
export async function queueDraft(tx: Tx, id: string, source: TransitionSource, at: Date, answer: ScrubAnswer = {}): Promise<Submission> {
  const [row] = await tx.select().from(submissions).where(eq(submissions.id, id)).for("update");
  if (!row) throw new SubmissionNotFoundError(id);
  if (row.status !== "draft") throw new IllegalTransitionError(id, row.status, "queued");
  const scrub = await scrubClaim(tx, { id: row.id, kind: row.kind === "claim" ? "claim" : "preauthorization", patientNationalId: row.patientNationalId, insurerId: row.insurerId, claim: row.claim, appealOfId: row.appealOfId, replacesId: row.replacesId }, at);
  const override = answer.overrideReason?.trim() || undefined;
  if ((scrub.errors.length > 0 && !override) || (scrub.warnings.length > 0 && !answer.acknowledgeWarnings && !override)) throw new ScrubBlockedError(scrub);
  await answer.onPass?.(tx, scrub, Boolean(override) && scrub.errors.length > 0);
  const system = row.identifierSystem ?? claimIdentifierSystem();
  const value = row.identifierValue ?? newClaimIdentifierValue();
  const others = Array.isArray(row.claim.identifier)
    ? (row.claim.identifier as { system?: string }[]).filter((i) => i.system !== system)
    : [];
  const claim = { ...row.claim, identifier: [{ system, value }, ...others] };
  const detail = scrub.findings.length > 0 ? { scrub: { ruleSet: scrub.ruleSet, findings: scrub.findings.map(findingSummary), ...(override && scrub.errors.length > 0 ? { override } : {}) } } : {};
  return transition(
    tx,
    row,
    "queued",
    source,
    detail,
    { identifierSystem: system, identifierValue: value, claim, nextAttemptAt: at, attempts: 0, errors: null },
    at,
  );
}

/** createDraft + queue (the machine APIs: warnings are recorded, not asked). */
export async function submit(deps: PipelineDeps, input: DraftInput, answer: ScrubAnswer = { acknowledgeWarnings: true }): Promise<Submission> {
  const at = nowOf(deps);
  return deps.db.transaction(async (tx) => queueDraft(tx, (await insertDraft(tx, input, at)).id, input.source ?? "user", at, answer));
}

/**
 * Puts a `failed` submission back in the outbox with the SAME identifier, so if an earlier attempt
 * did reach the platform the next one is answered ERR-005 and reconciled, never duplicated.
 */
export async function retrySubmission(deps: PipelineDeps, id: string, source: TransitionSource = "user"): Promise<Submission> {
  const at = nowOf(deps);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(submissions).where(eq(submissions.id, id)).for("update");
    if (!row) throw new SubmissionNotFoundError(id);
    if (row.status !== "failed") throw new IllegalTransitionError(id, row.status, "queued");
    return transition(
      tx,
      row,
      "queued",
      source,
      { retry: true, previousErrors: row.errors ?? undefined },
      { attempts: 0, nextAttemptAt: at, errors: null, leaseOwner: null, leaseUntil: null },
      at,
    );
  });
}

/**
 * The payer confirmed a cancellation the clinic asked for (lib/cancellation): the submission, read
 * FOR UPDATE in the caller's transaction, becomes `cancelled` and leaves the outbox. A status
 * change is the owner's own act (`transition` is private to lib/submissions); the caller checks
 * that the status allows it.
 */
export async function markCancelled(tx: Tx, current: Submission, detail: TransitionDetail, at: Date): Promise<Submission> {
  return transition(tx, current, "cancelled", "user", detail, { nextAttemptAt: null, leaseOwner: null, leaseUntil: null }, at);
}

export async function getSubmission(db: Db | Tx, id: string): Promise<Submission | undefined> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
  return row;
}

/**
 * The submission an answer or a reference points at: by the exchange's Claim id, else by our
 * identifier (system and value when the system is one of ours; a value alone must match exactly
 * one row to count — the values are UUIDs the portal fixed).
 */
export async function findSubmissionByReference(
  db: Db | Tx,
  reference: { platformId?: string; identifier?: { system?: string; value: string }; ourSystem?: (system: string) => boolean },
): Promise<Pick<Submission, "id" | "kind"> | undefined> {
  if (reference.platformId) {
    const [row] = await db.select({ id: submissions.id, kind: submissions.kind }).from(submissions).where(eq(submissions.platformId, reference.platformId));
    if (row) return row;
  }
  const identifier = reference.identifier;
  if (!identifier?.value) return undefined;
  const condition =
    identifier.system && reference.ourSystem?.(identifier.system)
      ? and(eq(submissions.identifierSystem, identifier.system), eq(submissions.identifierValue, identifier.value))
      : eq(submissions.identifierValue, identifier.value);
  const rows = await db.select({ id: submissions.id, kind: submissions.kind }).from(submissions).where(condition).limit(2);
  return rows.length === 1 ? rows[0] : undefined;
}

/**
 * The submission an answer the exchange sends on its own (a late ClaimResponse, a Task, a payer's
 * request) is about: by the exchange's Claim id, else by our identifier. Looser than
 * `findSubmissionByReference`: the identifier's system, when the answer names one, must match as
 * given (it is not checked to be ours), a value alone matches any system, and the first row found
 * counts even when the value is not unique.
 */
export async function findSubmissionByRequest(
  db: Db | Tx,
  request: { platformId?: string; identifier?: { system?: string; value?: string } },
): Promise<Pick<Submission, "id" | "kind"> | undefined> {
  const { platformId, identifier } = request;
  const [byId] = platformId ? await db.select({ id: submissions.id, kind: submissions.kind }).from(submissions).where(eq(submissions.platformId, platformId)).limit(1) : [];
  if (byId) return byId;
  if (!identifier?.value) return undefined;
  const [row] = await db
    .select({ id: submissions.id, kind: submissions.kind })
    .from(submissions)
    .where(and(eq(submissions.identifierValue, identifier.value), ...(identifier.system ? [eq(submissions.identifierSystem, identifier.system)] : [])))
    .limit(1);
  return row;
}

/**
 * A patient's claims that stand (neither a draft nor rejected, failed or cancelled), with the
 * Claim each carries: what a new claim is compared with for duplicates.
 */
export async function standingClaimsOf(db: Db, nationalId: string, excludeId?: string): Promise<Pick<Submission, "id" | "status" | "createdAt" | "claim">[]> {
  const where = [eq(submissions.kind, "claim"), eq(submissions.patientNationalId, nationalId), notInArray(submissions.status, ["draft", "rejected", "failed", "cancelled"])];
  if (excludeId) where.push(ne(submissions.id, excludeId));
  return db.select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt, claim: submissions.claim }).from(submissions).where(and(...where));
}

/** The claims of one "submit selected" batch (`form.batch`), counted by status. */
export async function batchStatusCounts(db: Db, batchId: string): Promise<Partial<Record<Submission["status"], number>>> {
  const rows = await db
    .select({ status: submissions.status, n: sql<number>`count(*)::int` })
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), sql`${submissions.form}->>'batch' = ${batchId}`))
    .groupBy(submissions.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** How many submissions wait on the exchange (sent or pended): one indexed count. */
export async function countAwaitingExchange(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(submissions).where(inArray(submissions.status, ["sent", "pended"]));
  return Number(row?.n ?? 0);
}

/** A submission re-read in the caller's transaction, its row locked until that ends (FOR UPDATE): the read before a change. */
export async function lockSubmission(tx: Tx, id: string): Promise<Submission | undefined> {
  const [row] = await tx.select().from(submissions).where(eq(submissions.id, id)).for("update");
  return row;
}

export type TimelineEntry = typeof submissionEvents.$inferSelect;

/**
 * Whether this ClaimResponse id was a decision of the submission that a later one replaced (its id
 * is the `previous.responseId` of a reissue on the timeline, docs/decisions/097): a late or replayed
 * copy of it is old news, never the current decision again.
 */
export async function wasReplacedResponse(db: Db | Tx, submissionId: string, responseId: string): Promise<boolean> {
  const rows = await db
    .select({ id: submissionEvents.id })
    .from(submissionEvents)
    .where(and(eq(submissionEvents.submissionId, submissionId), sql`${submissionEvents.detail} -> 'previous' ->> 'responseId' = ${responseId}`))
    .limit(1);
  return rows.length > 0;
}

/** The timeline of one submission, oldest first. */
export async function submissionTimeline(db: Db, id: string): Promise<TimelineEntry[]> {
  return db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, id)).orderBy(asc(submissionEvents.at), asc(submissionEvents.id));
}
