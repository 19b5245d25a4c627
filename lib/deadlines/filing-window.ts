import { eq } from "drizzle-orm";
import { tables, type Db, type Tx } from "@/lib/db";

const { insurerFilingWindows } = tables;

/**
 * The submission window a payer's settings give (days after the service), or undefined when the
 * payer has none set. The scrubber asks it in the queueing's transaction; it sits below this module
 * in the map of lib/, so the composition hands it this read (docs/decisions/128).
 */
export async function filingWindowDays(db: Db | Tx, insurerId: string): Promise<number | undefined> {
  const [w] = await db.select({ days: insurerFilingWindows.submissionDays }).from(insurerFilingWindows).where(eq(insurerFilingWindows.insurerId, insurerId)).limit(1);
  return w?.days;
}
