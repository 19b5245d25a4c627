import { inArray } from "drizzle-orm";
import { submissions, type Db, type SubmissionStatus } from "@/lib/db";

/** The status of each of these submissions (one row per id found, in no particular order): what a bench waits on. */
export async function statusesOf(db: Db, ids: readonly string[]): Promise<{ status: SubmissionStatus }[]> {
  return db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, [...ids]));
}
