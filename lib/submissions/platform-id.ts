import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db";
import { submissions } from "@/lib/db";
import type { Submission } from "./states";

/**
 * Keeps the platform's own id of a submission the first time an answer gives one. Our Claim
 * identifier is the submission's identity; the platform id is only remembered, never required
 * (docs/decisions/073), and never overwritten once known.
 */
export async function notePlatformId(db: Db | Tx, id: string, platformId: string): Promise<Submission | undefined> {
  const [row] = await db
    .update(submissions)
    .set({ platformId })
    .where(and(eq(submissions.id, id), isNull(submissions.platformId)))
    .returning();
  return row;
}
