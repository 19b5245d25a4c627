import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";

/**
 * Decision 107: the trends read one rollup row per clinic day, kept for the clinic's time zone
 * stored in `dashboard_clock`. The portal sets it at start from CLINIC_TIME_ZONE; when the zone
 * changed, the database rebuilds the clinic-day rows from the hour rows in the same transaction
 * (drizzle/0029_clinic_day_rollups.sql `dashboard_clock_set`). Returns whether it rebuilt. Until
 * then, a trend in another zone reads the hour rows (lib/dashboard/queries.ts trendGrain).
 */
export async function setDashboardClock(db: Db, timeZone: string): Promise<boolean> {
  const [row] = await queryRows<{ rebuilt: boolean }>(db, sql`select dashboard_clock_set(${timeZone}) as rebuilt`);
  return row?.rebuilt === true;
}

/** The time zone the clinic-day rows follow (null before any was set). */
export async function dashboardClock(db: Db): Promise<string | null> {
  const [row] = await queryRows<{ timeZone: string }>(db, sql`select time_zone as "timeZone" from dashboard_clock`);
  return row?.timeZone ?? null;
}
