import { asc, eq } from "drizzle-orm";
import type { Db, SubmissionKind, TransitionSource } from "@/lib/db";
import { submissionEvents, submissions, users } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { claimIdentifierSystem, newClaimIdentifierValue } from "./identifiers";
import { claimTotalMinor } from "./money";
import { appendTimeline, emitLive, transition, IllegalTransitionError, type Submission } from "./states";

export class SubmissionNotFoundError extends Error {
  override name = "SubmissionNotFoundError";
  constructor(readonly submissionId: string) {
    super(`no submission ${submissionId}`);
  }
}

export interface DraftInput {
  kind: SubmissionKind;
  /** The platform's Patient id (national ID / Iqama). Patient data: never logged. */
  patientId: string;
  insurerId?: string;
  /** The FHIR Claim to send; `identifier[0]` is replaced when the submission is queued. */
  claim: Record<string, unknown>;
  channel?: string;
  createdBy?: string;
  replacesId?: string;
  authorizationId?: string;
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
  if (input.claim.use !== undefined && input.claim.use !== input.kind) {
    throw new Error(`Claim.use ${String(input.claim.use)} does not match the submission kind ${input.kind}`);
  }
  const at = nowOf(deps);
  const money = claimTotalMinor(input.claim);
  return deps.db.transaction(async (tx) => {
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
        patientId: input.patientId,
        insurerId: input.insurerId ?? null,
        claim: { ...input.claim, use: input.kind },
        totalMinor: money?.totalMinor ?? null,
        currency: money?.currency ?? null,
        channel: input.channel ?? "ui",
        createdBy: input.createdBy ?? null,
        replacesId: input.replacesId ?? null,
        authorizationId: input.authorizationId ?? null,
        facilityId,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await appendTimeline(tx, { submissionId: row!.id, from: null, to: "draft", source: input.source ?? "user", at });
    await emitLive(tx, row!, { from: null, source: input.source ?? "user", at });
    return row!;
  });
}

/**
 * Hands a draft to the outbox: fixes the business identifier (exactly once — a submission that
 * already has one keeps it) and makes it due now.
 */
export async function queue(deps: PipelineDeps, id: string, source: TransitionSource = "user"): Promise<Submission> {
  const at = nowOf(deps);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(submissions).where(eq(submissions.id, id)).for("update");
    if (!row) throw new SubmissionNotFoundError(id);
    if (row.status !== "draft") throw new IllegalTransitionError(id, row.status, "queued");
    const system = row.identifierSystem ?? claimIdentifierSystem();
    const value = row.identifierValue ?? newClaimIdentifierValue();
    const others = Array.isArray(row.claim.identifier)
      ? (row.claim.identifier as { system?: string }[]).filter((i) => i.system !== system)
      : [];
    const claim = { ...row.claim, identifier: [{ system, value }, ...others] };
    return transition(
      tx,
      row,
      "queued",
      source,
      {},
      { identifierSystem: system, identifierValue: value, claim, nextAttemptAt: at, attempts: 0, errors: null },
      at,
    );
  });
}

/** createDraft + queue. */
export async function submit(deps: PipelineDeps, input: DraftInput): Promise<Submission> {
  const draft = await createDraft(deps, input);
  return queue(deps, draft.id, input.source ?? "user");
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

export async function getSubmission(db: Db, id: string): Promise<Submission | undefined> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
  return row;
}

export type TimelineEntry = typeof submissionEvents.$inferSelect;

/** The timeline of one submission, oldest first. */
export async function submissionTimeline(db: Db, id: string): Promise<TimelineEntry[]> {
  return db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, id)).orderBy(asc(submissionEvents.at), asc(submissionEvents.id));
}
