import { bigint, boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/**
 * Managers' dashboards: submissions rolled up per UTC hour of `created_at`, insurer,
 * kind, benefit category (of the first item), status and reason. Maintained by statement-level
 * triggers on `submissions` (migration `dashboard_triggers`) in the same transaction as every
 * change, so it is never out of step; the dashboard reads this instead of a million rows.
 * Hours (not days) so any whole-hour clinic time zone can group them into its own days.
 */
/** The dimensions and money of a rollup row, shared by the hourly and the coarser rollups (fresh builders for each table). */
const rollupColumns = () => ({
  /** '' when the submission has no insurer. */
  insurerId: text("insurer_id").notNull(),
  kind: text("kind").notNull(),
  /** Benefit category code of the first item ('' when unknown). */
  category: text("category").notNull(),
  status: text("status").notNull(),
  /** Rejected/failed: error code (ERR-00x or http-NNN); denied/partial: the disposition; else ''. */
  reason: text("reason").notNull(),
  count: bigint("count", { mode: "number" }).notNull().default(0),
  submittedMinor: bigint("submitted_minor", { mode: "number" }).notNull().default(0),
  eligibleMinor: bigint("eligible_minor", { mode: "number" }).notNull().default(0),
  benefitMinor: bigint("benefit_minor", { mode: "number" }).notNull().default(0),
  copayMinor: bigint("copay_minor", { mode: "number" }).notNull().default(0),
});

export const adjudicationHourly = pgTable(
  "adjudication_hourly",
  {
    hour: timestamp("hour", { withTimezone: true, mode: "date" }).notNull(),
    ...rollupColumns(),
    /** Submissions with both sent_at and decided_at, and the sum of their seconds in between. */
    decidedCount: bigint("decided_count", { mode: "number" }).notNull().default(0),
    decideSeconds: bigint("decide_seconds", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.hour, t.insurerId, t.kind, t.category, t.status, t.reason] }),
    index("adjudication_hourly_kind_hour_idx").on(t.kind, t.hour),
  ],
);

/** CPT code → benefit category, for claims whose items carry no category (filled by the migration). */
export const dashboardProcedureCategories = pgTable("dashboard_procedure_categories", {
  code: text("code").primaryKey(),
  category: text("category").notNull(),
  sequence: integer("sequence").notNull().default(0),
});

/**
 * Decision 052: decision times (sent → adjudicated) of claims as a log-spaced histogram, so the
 * dashboard's median over any range reads a few thousand rows instead of every decided claim.
 * One row per grain ('hour', 'day' or 'month' of `created_at`, in UTC), insurer and bucket; a
 * range reads whole UTC months, then whole UTC days, then hours at its edges. Bucket 0 holds
 * decision times under 1 s; bucket b ≥ 1 holds [1.05^(b-1), 1.05^b) seconds (the last one, 400,
 * everything longer). Kept by statement-level triggers on `submissions` (migration
 * `dashboard_decision_histogram`) for claims with both sent_at and decided_at.
 */
export const decisionTimeHistogram = pgTable(
  "decision_time_histogram",
  {
    grain: text("grain").notNull(),
    period: timestamp("period", { withTimezone: true, mode: "date" }).notNull(),
    /** '' when the claim has no insurer. */
    insurerId: text("insurer_id").notNull(),
    bucket: smallint("bucket").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.grain, t.period, t.insurerId, t.bucket] })],
);

/**
 * Decision 052: `adjudication_hourly` at coarser grains, so a range of up to 24 months reads a few
 * thousand rows. 'day' and 'month' (UTC) rows carry every dimension; a range reads whole UTC months,
 * whole UTC days at their edges and `adjudication_hourly` for the hours at its own edges. 'hour'
 * rows hold adjudicated claims only (complete, partial, denied: status 'decided', category and
 * reason ''), one per hour and insurer: the trend groups them into clinic days and weeks. Kept by statement-level triggers on `submissions` (migration
 * `dashboard_rollup_periods`).
 */
export const adjudicationRollup = pgTable(
  "adjudication_rollup",
  {
    grain: text("grain").notNull(),
    period: timestamp("period", { withTimezone: true, mode: "date" }).notNull(),
    ...rollupColumns(),
  },
  (t) => [primaryKey({ columns: [t.grain, t.period, t.insurerId, t.kind, t.category, t.status, t.reason] })],
);

/**
 * Decision 107: the clinic's time zone the 'clinic-day' rows of `adjudication_rollup` and
 * `denial_rollup` follow (one row; set at start by lib/dashboard setDashboardClock, whose SQL
 * function rebuilds those rows when the zone changes).
 */
export const dashboardClock = pgTable(
  "dashboard_clock",
  {
    id: boolean("id").primaryKey().default(true),
    timeZone: text("time_zone").notNull(),
  },
  (t) => [check("dashboard_clock_one_row", sql`${t.id}`)],
);
