import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Managers' dashboards (issue #8): submissions rolled up per UTC hour of `created_at`, insurer,
 * kind, benefit category (of the first item), status and reason. Maintained by statement-level
 * triggers on `submissions` (migration `dashboard_triggers`) in the same transaction as every
 * change, so it is never out of step; the dashboard reads this instead of a million rows.
 * Hours (not days) so any whole-hour clinic time zone can group them into its own days.
 */
export const adjudicationHourly = pgTable(
  "adjudication_hourly",
  {
    hour: timestamp("hour", { withTimezone: true, mode: "date" }).notNull(),
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
