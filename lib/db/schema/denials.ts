import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { submissions } from "./submissions";
import { users } from "./staff";

/**
 * Denied and reduced claim lines (docs/decisions/076): one row per item of an adjudicated claim
 * that the payer rejected or cut, with its reason classified and the money at stake in exact minor
 * units. Written by statement-level triggers on `submissions` from the stored reader's view
 * (`response_view`) and the Claim (migration `denial_lines`), in the same transaction as the
 * decision, so nothing in the portal's code has to remember to write it.
 */
export const denialLines = pgTable(
  "denial_lines",
  {
    submissionId: uuid("submission_id").notNull(),
    /** The claim item's sequence. */
    sequence: integer("sequence").notNull(),
    /** The claim's `created_at` (the dashboard counts a claim by when it was created, decision 052). */
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    /** '' when the claim has no insurer. */
    insurerId: text("insurer_id").notNull(),
    /** 'rejected' (nothing granted) or 'reduced' (granted in part). */
    outcome: text("outcome").notNull(),
    reasonSystem: text("reason_system").notNull(),
    /** The first reason's code as given; '' when the payer gave none. */
    reasonCode: text("reason_code").notNull(),
    /** AD, CV, MN, SE, BE; '' when the code belongs to no family (a payer's own). */
    family: text("family").notNull(),
    /** The item's productOrService code ('' when none). */
    serviceCode: text("service_code").notNull(),
    /** The item's practitioner from Claim.careTeam (licence, display or reference); '' when the claim names none. */
    practitioner: text("practitioner").notNull(),
    submittedMinor: bigint("submitted_minor", { mode: "number" }).notNull(),
    benefitMinor: bigint("benefit_minor", { mode: "number" }).notNull(),
    /** submitted − benefit. */
    atStakeMinor: bigint("at_stake_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
  },
  (t) => [
    // No unique key on (submission, sequence): a payer's answer may repeat a sequence, and a
    // trigger that failed on it would fail the decision itself.
    index("denial_lines_submission_idx").on(t.submissionId),
    index("denial_lines_created_idx").on(t.createdAt),
    index("denial_lines_reason_created_idx").on(t.reasonCode, t.createdAt),
  ],
);

/**
 * `denial_lines` summed per UTC day and month of `created_at`, insurer, dimension (family, reason,
 * insurer, service, practitioner: `key` holds its value), family and outcome; and per UTC hour for
 * the trend (dimension 'trend', key and family ''). Kept by statement-level triggers on
 * `denial_lines`; a range reads whole months and days here and its edge hours from `denial_lines`.
 */
export const denialRollup = pgTable(
  "denial_rollup",
  {
    grain: text("grain").notNull(),
    period: timestamp("period", { withTimezone: true, mode: "date" }).notNull(),
    insurerId: text("insurer_id").notNull(),
    dimension: text("dimension").notNull(),
    key: text("key").notNull(),
    family: text("family").notNull(),
    outcome: text("outcome").notNull(),
    lines: bigint("lines", { mode: "number" }).notNull().default(0),
    submittedMinor: bigint("submitted_minor", { mode: "number" }).notNull().default(0),
    atStakeMinor: bigint("at_stake_minor", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.grain, t.dimension, t.period, t.insurerId, t.key, t.family, t.outcome] })],
);

/**
 * The claims work queue's assignment (docs/decisions/080): who works a claim that needs fixing,
 * resubmitting or appealing. One row per claim that was ever assigned; `assignee_id` null = open.
 */
export const claimWork = pgTable("claim_work", {
  submissionId: uuid("submission_id")
    .primaryKey()
    .references(() => submissions.id, { onDelete: "cascade" }),
  assigneeId: uuid("assignee_id").references(() => users.id, { onDelete: "set null" }),
  updatedBy: text("updated_by").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** Notes on a claim in the work queue (decision 080): appended, never edited. No patient data is required in them. */
export const claimWorkNotes = pgTable(
  "claim_work_notes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    authorId: text("author_id").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("claim_work_notes_submission_idx").on(t.submissionId, t.createdAt)],
);
