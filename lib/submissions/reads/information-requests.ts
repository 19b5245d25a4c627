import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { informationRequests, patients, submissions, type Db, type InformationRequestStatus, type SubmissionKind, type SubmissionStatus } from "@/lib/db";

/*
 * The information-requests queue's reads (lib/information-requests): a payer's requests with the
 * submission each is about (its kind, status, insurer, money) and the registered patient's name.
 */

/** The tabs of the queue: open, open past due, answered (or acknowledged), all. */
export const INFORMATION_REQUEST_FILTERS = ["open", "overdue", "answered", "all"] as const;
export type InformationRequestFilter = (typeof INFORMATION_REQUEST_FILTERS)[number];

/** The kind of submission an information request is about (undefined: no such request). */
export async function informationRequestSubmissionKind(db: Db, id: string): Promise<SubmissionKind | undefined> {
  const [row] = await db
    .select({ kind: submissions.kind })
    .from(informationRequests)
    .innerJoin(submissions, eq(submissions.id, informationRequests.submissionId))
    .where(eq(informationRequests.id, id));
  return row?.kind;
}

export interface InformationRequestQueueRow {
  id: string;
  submissionId: string;
  submissionKind: SubmissionKind;
  submissionStatus: SubmissionStatus;
  status: InformationRequestStatus;
  asks: string[];
  attachmentTypes: string[];
  dueAt: Date | null;
  receivedAt: Date;
  answeredAt: Date | null;
  answerText: string | null;
  acknowledgedAt: Date | null;
  /** The registered patient's names (null: not registered). */
  givenName: string | null;
  familyName: string | null;
  insurerId: string | null;
  totalMinor: number | null;
  currency: string | null;
}

/**
 * The requests about submissions of these kinds (one submission's, with `submissionId`) under a
 * tab: open ones first, soonest due first, then the latest received; at most `limit`.
 */
export async function informationRequestQueue(
  db: Db,
  options: { filter: InformationRequestFilter; kinds: readonly SubmissionKind[]; submissionId?: string; now: Date; limit: number },
): Promise<InformationRequestQueueRow[]> {
  const { filter, now } = options;
  const where: SQL[] = [inArray(submissions.kind, [...options.kinds])];
  if (options.submissionId) where.push(eq(informationRequests.submissionId, options.submissionId));
  if (filter === "open") where.push(eq(informationRequests.status, "open"));
  if (filter === "overdue") where.push(eq(informationRequests.status, "open"), sql`${informationRequests.dueAt} < ${now.toISOString()}::timestamptz`);
  if (filter === "answered") where.push(inArray(informationRequests.status, ["answered", "acknowledged"]));
  return db
    .select({
      id: informationRequests.id,
      submissionId: informationRequests.submissionId,
      submissionKind: submissions.kind,
      submissionStatus: submissions.status,
      status: informationRequests.status,
      asks: informationRequests.asks,
      attachmentTypes: informationRequests.attachmentTypes,
      dueAt: informationRequests.dueAt,
      receivedAt: informationRequests.receivedAt,
      answeredAt: informationRequests.answeredAt,
      answerText: informationRequests.answerText,
      acknowledgedAt: informationRequests.acknowledgedAt,
      givenName: patients.givenName,
      familyName: patients.familyName,
      insurerId: submissions.insurerId,
      totalMinor: submissions.totalMinor,
      currency: submissions.currency,
    })
    .from(informationRequests)
    .innerJoin(submissions, eq(submissions.id, informationRequests.submissionId))
    .leftJoin(patients, eq(patients.nationalId, submissions.patientNationalId))
    .where(and(...where))
    .orderBy(sql`case when ${informationRequests.status} = 'open' then 0 else 1 end`, asc(sql`coalesce(${informationRequests.dueAt}, 'infinity'::timestamptz)`), desc(informationRequests.receivedAt))
    .limit(options.limit);
}

/** How many open requests about submissions of these kinds, and how many of them are past due at `now`. */
export async function openInformationRequestCounts(db: Db, kinds: readonly SubmissionKind[], now: Date): Promise<{ open: number; overdue: number }> {
  const [row] = await db
    .select({
      open: sql<number>`count(*)::int`,
      overdue: sql<number>`count(*) filter (where ${informationRequests.dueAt} < ${now.toISOString()}::timestamptz)::int`,
    })
    .from(informationRequests)
    .innerJoin(submissions, eq(submissions.id, informationRequests.submissionId))
    .where(and(eq(informationRequests.status, "open"), inArray(submissions.kind, [...kinds])));
  return { open: row?.open ?? 0, overdue: row?.overdue ?? 0 };
}
