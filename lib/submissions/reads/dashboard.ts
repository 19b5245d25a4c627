import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { liveEvents, patients, submissions, type Db } from "@/lib/db";

/*
 * The managers' dashboard's read of the submissions (lib/dashboard): the live board's feed, whose
 * events name their submission and, through it, the registered patient.
 */

export type LiveFeedRow = Pick<typeof liveEvents.$inferSelect, "id" | "at" | "kind" | "submissionKind" | "submissionId" | "status" | "payload"> & {
  /** The registered patient's given and family name (null: not registered, or no submission). */
  patient: string | null;
};

/**
 * The latest live events managers may see (status changes and, docs/decisions/047, payers'
 * information requests, their answers and claims paid in remittances), newest first, each with
 * the patient's name of its submission.
 */
export async function managerLiveFeed(db: Db, limit: number): Promise<LiveFeedRow[]> {
  return db
    .select({
      id: liveEvents.id,
      at: liveEvents.at,
      kind: liveEvents.kind,
      submissionKind: liveEvents.submissionKind,
      submissionId: liveEvents.submissionId,
      status: liveEvents.status,
      payload: liveEvents.payload,
      patient: sql<string | null>`${patients.givenName} || ' ' || ${patients.familyName}`,
    })
    .from(liveEvents)
    .leftJoin(submissions, eq(submissions.id, liveEvents.submissionId))
    .leftJoin(patients, eq(patients.nationalId, submissions.patientNationalId))
    .where(and(inArray(liveEvents.kind, ["submission.status", "information.request", "payment.remittance"]), sql`'manager' = any(${liveEvents.audience})`))
    .orderBy(desc(liveEvents.id))
    .limit(limit);
}
