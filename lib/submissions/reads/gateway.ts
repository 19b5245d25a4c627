import { and, asc, count, desc, eq, gt, max, sql, type SQL } from "drizzle-orm";
import { submissionEvents, submissions, type Db, type SubmissionKind, type SubmissionStatus, type TransitionSource } from "@/lib/db";
import type { Submission } from "../states";

/*
 * The gateway's reads of the submissions (lib/gateway): the timeline as a feed of notifications,
 * a patient's record's counts, and a submission found by the identifier its caller knows.
 */

/** The submissions one caller made: their channel and `created_by`. */
export interface MadeBy {
  channel: string;
  createdBy: string;
}

export interface TimelineFeedRow {
  id: number;
  at: Date;
  submissionId: string;
  kind: SubmissionKind;
  from: SubmissionStatus | null;
  to: SubmissionStatus;
  source: TransitionSource;
  detail: Record<string, unknown> | null;
}

/**
 * Timeline events after the event id `after`, oldest first, at most `limit`: of submissions of
 * `kind` only, and of those `madeBy` made only, when given.
 */
export async function timelineEventsAfter(db: Db, options: { after: number; kind?: SubmissionKind; madeBy?: MadeBy; limit: number }): Promise<TimelineFeedRow[]> {
  const where: SQL[] = [gt(submissionEvents.id, options.after)];
  if (options.kind) where.push(eq(submissions.kind, options.kind));
  if (options.madeBy) where.push(and(eq(submissions.channel, options.madeBy.channel), eq(submissions.createdBy, options.madeBy.createdBy))!);
  return db
    .select({
      id: submissionEvents.id,
      at: submissionEvents.at,
      submissionId: submissionEvents.submissionId,
      kind: submissions.kind,
      from: submissionEvents.fromStatus,
      to: submissionEvents.toStatus,
      source: submissionEvents.source,
      detail: submissionEvents.detail,
    })
    .from(submissionEvents)
    .innerJoin(submissions, eq(submissions.id, submissionEvents.submissionId))
    .where(and(...where))
    .orderBy(asc(submissionEvents.id))
    .limit(options.limit);
}

/** The newest timeline event's id (0 when there is none). */
export async function newestTimelineEventId(db: Db): Promise<number> {
  const [latest] = await db.select({ id: max(submissionEvents.id) }).from(submissionEvents);
  return Number(latest?.id ?? 0);
}

/** A patient's submissions counted by kind and status. */
export async function submissionCountsOfPatient(db: Db, nationalId: string): Promise<{ kind: SubmissionKind; status: SubmissionStatus; n: number }[]> {
  return db
    .select({ kind: submissions.kind, status: submissions.status, n: count() })
    .from(submissions)
    .where(and(eq(submissions.patientNationalId, nationalId)))
    .groupBy(submissions.kind, submissions.status);
}

/** The submission of `kind` with this business identifier (system and value). */
export async function submissionByIdentifier(db: Db, kind: SubmissionKind, identifier: { system: string; value: string }): Promise<Submission | undefined> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.identifierSystem, identifier.system), eq(submissions.identifierValue, identifier.value), eq(submissions.kind, kind)))
    .limit(1);
  return row;
}

/** The latest submission of `kind` that `madeBy` made whose Claim, as the caller sent it, carries an identifier with this value. */
export async function latestSubmissionByClaimIdentifier(db: Db, kind: SubmissionKind, madeBy: MadeBy, value: string): Promise<Submission | undefined> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.channel, madeBy.channel),
        eq(submissions.createdBy, madeBy.createdBy),
        eq(submissions.kind, kind),
        sql`${submissions.claim} -> 'identifier' @> ${JSON.stringify([{ value }])}::jsonb`,
      ),
    )
    .orderBy(desc(submissions.createdAt))
    .limit(1);
  return row;
}
