import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { informationRequests, submissions, type Db } from "@/lib/db";

/*
 * The deadlines' reads of the submissions (lib/deadlines): the claims whose filing or resubmission
 * window still runs, and the claims a payer asked information about by a date.
 */

/** Claim states with a deadline still ahead: not yet sent (draft, failed) or rejected and not yet replaced. */
const OPEN_STATES = ["draft", "failed", "rejected"] as const;

export interface OpenClaim {
  id: string;
  status: string;
  insurerId: string | null;
  claim: Record<string, unknown>;
  /** The clinic day of the last change (for rejected: the rejection). */
  changedDay: string;
}

const dayIn = (timeZone: string) => sql<string>`to_char(${submissions.updatedAt} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;

/** Claims still open (drafts, failed, rejected without a replacement), all or those of `ids`, with the day of their last change in `timeZone`. */
export async function openClaims(db: Db, timeZone: string, ids?: readonly string[]): Promise<OpenClaim[]> {
  const replacement = sql`NOT EXISTS (SELECT 1 FROM submissions r WHERE r.replaces_id = ${submissions.id})`;
  return db
    .select({ id: submissions.id, status: submissions.status, insurerId: submissions.insurerId, claim: submissions.claim, changedDay: dayIn(timeZone) })
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), inArray(submissions.status, [...OPEN_STATES]), replacement, ...(ids ? [inArray(submissions.id, [...ids])] : [])));
}

export interface InformationDue {
  submissionId: string;
  insurerId: string | null;
  /** The earliest due date of the claim's open information requests, as a clinic day. */
  dueDay: string;
}

/** Claims (not authorizations: their requests are in the information-requests queue) with an open, dated information request; all or those of `ids`. */
export async function claimsWithInformationDue(db: Db, timeZone: string, ids?: readonly string[]): Promise<InformationDue[]> {
  const dueDay = sql<string>`to_char(min(${informationRequests.dueAt}) AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;
  return db
    .select({ submissionId: informationRequests.submissionId, insurerId: submissions.insurerId, dueDay })
    .from(informationRequests)
    .innerJoin(submissions, eq(submissions.id, informationRequests.submissionId))
    .where(and(eq(informationRequests.status, "open"), isNotNull(informationRequests.dueAt), eq(submissions.kind, "claim"), ...(ids ? [inArray(informationRequests.submissionId, [...ids])] : [])))
    .groupBy(informationRequests.submissionId, submissions.insurerId) as Promise<InformationDue[]>;
}
