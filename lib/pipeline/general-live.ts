import { sql } from "drizzle-orm";
import { liveEvents } from "@/lib/db";
import type { Db, Tx } from "@/lib/db";
import { LIVE_CHANNEL } from "@/lib/submissions";

/**
 * A live event about no one submission (a visit run's progress, a remittance's arrival): its
 * kind, the roles it is for and a payload of ids, counts and amounts — never patient data.
 */
export async function emitGeneralLive(db: Db | Tx, kind: string, audience: readonly string[], payload: Record<string, unknown>): Promise<void> {
  const [event] = await db.insert(liveEvents).values({ kind, audience: [...audience], payload }).returning({ id: liveEvents.id });
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${String(event!.id)})`);
}
