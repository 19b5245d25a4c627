import { eq, inArray } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import type { Submission } from "../states";

/*
 * Test fixtures: submissions in any state, written directly (no life cycle, no timeline) by the
 * table's owner, so no other module writes `submissions`, not even its tests (docs/decisions/062).
 */
export type SubmissionRow = typeof submissions.$inferInsert;

export async function insertSubmissions(db: Db, rows: SubmissionRow | SubmissionRow[]): Promise<Submission[]> {
  return db.insert(submissions).values(Array.isArray(rows) ? rows : [rows]).returning();
}

export async function patchSubmission(db: Db, id: string, patch: PgUpdateSetSource<typeof submissions>): Promise<Submission | undefined> {
  const [row] = await db.update(submissions).set(patch).where(eq(submissions.id, id)).returning();
  return row;
}

export async function deleteSubmissions(db: Db, ids: readonly string[]): Promise<void> {
  await db.delete(submissions).where(inArray(submissions.id, [...ids]));
}

/** The same change on every row (a bulk update the tests prove changes nothing it should not). */
export async function patchEverySubmission(db: Db, patch: PgUpdateSetSource<typeof submissions>): Promise<number> {
  return (await db.update(submissions).set(patch).returning({ id: submissions.id })).length;
}
