import { eq } from "drizzle-orm";
import { visits, type Db, type Tx } from "@/lib/db";

/**
 * Whether any visit list plans a visit under this national ID (the row carries the number itself).
 * The patient registry (a lower layer) may not ask it: the composition hands it down for the
 * correction of a patient's number (docs/decisions/128), which reads it in its own transaction.
 */
export async function hasVisitsFor(db: Db | Tx, nationalId: string): Promise<boolean> {
  const [planned] = await db.select({ id: visits.id }).from(visits).where(eq(visits.nationalId, nationalId)).limit(1);
  return planned !== undefined;
}
