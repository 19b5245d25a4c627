import { and, arrayOverlaps, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { liveEvents, type Db } from "@/lib/db";

/**
 * A live stamp: the newest live event a server-rendered page depends on (its kinds, optionally one
 * submission or one kind of submission) among those the user's roles may see. The page is rendered
 * with it; the browser asks again when events arrive or the stream reopens, and re-renders the page
 * only when the stamp moved (components/query/use-live-query.ts `useLiveServerView`).
 */
export const liveStampQuery = z.object({
  kinds: z.array(z.string().regex(/^[a-z]+\.[a-z.]+$/).max(40)).min(1).max(8),
  submissionId: z.uuid().optional(),
  submissionKind: z.enum(["claim", "preauthorization"]).optional(),
});
export type LiveStampQuery = z.output<typeof liveStampQuery>;

export async function liveStamp(db: Db, roles: readonly string[], query: LiveStampQuery): Promise<number> {
  // A page asked for a malformed id shows "not found"; it has no events.
  if (query.submissionId !== undefined && !z.uuid().safeParse(query.submissionId).success) return 0;
  const [row] = await db
    .select({ id: sql<string | null>`max(${liveEvents.id})::text` })
    .from(liveEvents)
    .where(
      and(
        inArray(liveEvents.kind, query.kinds),
        arrayOverlaps(liveEvents.audience, [...roles]),
        query.submissionId ? eq(liveEvents.submissionId, query.submissionId) : undefined,
        query.submissionKind ? eq(liveEvents.submissionKind, query.submissionKind) : undefined,
      ),
    );
  return row?.id ? Number(row.id) : 0;
}
