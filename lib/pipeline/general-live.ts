import type { Db, Tx } from "@/lib/db";
import { announceLive } from "@/lib/submissions";

/**
 * A live event about no one submission (a visit run's progress, a remittance's arrival): its
 * kind, the roles it is for and a payload of ids, counts and amounts — never patient data.
 * Written and announced by the one emitter of live events (`announceLive`).
 */
export async function emitGeneralLive(db: Db | Tx, kind: string, audience: readonly string[], payload: Record<string, unknown>): Promise<void> {
  await announceLive(db, { kind, audience: [...audience], payload });
}
