import { sql } from "drizzle-orm";
import { date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Eligibility ahead of the visit (decisions 043–044): visit lists (uploaded, picked, or
 * sent by the clinic's systems), their visits with the per-visit check state and verdict, and the
 * paced batch runs that check them.
 */

/**
 * The shared rate limiter's priority signal (lib/platform/rate-limiter.ts, decision 043): an
 * interactive caller of instance `holder` waits for a permit of `bucket` until `until`. Batch
 * permits are refused while any row is live, on every instance.
 */
export const platformRateWaiters = pgTable(
  "platform_rate_waiters",
  {
    bucket: text("bucket").notNull(),
    holder: text("holder").notNull(),
    until: utc("until").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.holder] })],
);

export const VISIT_LIST_SOURCES = ["upload", "picked", "api", "gateway"] as const;
export type VisitListSource = (typeof VISIT_LIST_SOURCES)[number];

/** A bad row of an uploaded or sent list: its line (CSV line number, or 1-based item), the field and why. */
export interface VisitRowProblem {
  line: number;
  field: string;
  code: string;
  message: { en: string; ar: string };
}

export const visitLists = pgTable(
  "visit_lists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    source: text("source").$type<VisitListSource>().notNull(),
    /** A staff user, or the API client / gateway token that sent the list. */
    createdBy: text("created_by"),
    /** Remaining benefit below this share of the limit → "nearly exhausted" (percent). */
    lowThresholdPercent: integer("low_threshold_percent").notNull().default(20),
    rowsTotal: integer("rows_total").notNull().default(0),
    problems: jsonb("problems").$type<VisitRowProblem[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("visit_lists_created_idx").on(t.createdAt)],
);

export const VISIT_CHECK_STATES = ["waiting", "done"] as const;
export type VisitCheckState = (typeof VISIT_CHECK_STATES)[number];

export const VISIT_VERDICTS = [
  "in_force",
  "not_in_force",
  "no_coverage",
  "benefit_exhausted",
  "benefit_low",
  "preauth_required",
  "not_registered",
  "platform_error",
] as const;
export type VisitVerdict = (typeof VISIT_VERDICTS)[number];

/** What the verdict rests on (per planned service category). */
export interface VisitVerdictDetail {
  problems: { verdict: VisitVerdict; category?: string; service?: string; remainingMinor?: number; usedPercent?: number }[];
  errorCode?: string;
  reason?: string;
}

export const visits = pgTable(
  "visits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listId: uuid("list_id")
      .notNull()
      .references(() => visitLists.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    nationalId: text("national_id").notNull(),
    /** The portal's patient, once registered. */
    patientId: uuid("patient_id"),
    /** Given in the list (optional): otherwise the patient's first coverage. */
    insurerId: text("insurer_id"),
    serviceDate: date("service_date", { mode: "string" }).notNull(),
    /** Planned services (CPT codes of the curated list). */
    services: text("services").array().$type<string[]>().notNull().default(sql`'{}'::text[]`),
    /** Names for registering an unknown patient from the list (optional columns). */
    registration: jsonb("registration").$type<{ givenName: string; familyName: string; birthDate: string; gender: string; memberId?: string } | null>(),
    /** Per-visit check state: `waiting` until a run has checked it once, then `done`. */
    checkState: text("check_state").$type<VisitCheckState>().notNull().default("waiting"),
    runId: uuid("run_id"),
    verdict: text("verdict").$type<VisitVerdict>(),
    verdictDetail: jsonb("verdict_detail").$type<VisitVerdictDetail>(),
    /** The stored eligibility check (eligibility_checks.id) behind the verdict. */
    checkId: uuid("check_id"),
    checkedAt: utc("checked_at"),
    /** Set just before the platform call: a crash after it is visible, and the next worker knows. */
    attemptedAt: utc("attempted_at"),
    /** The eligibility request identifier of the attempt: after a crash, an answer already stored under it is adopted, not asked again. */
    checkIdentifier: text("check_identifier"),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseUntil: utc("lease_until"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("visits_list_idx").on(t.listId, t.line),
    index("visits_run_state_idx").on(t.runId, t.checkState),
    index("visits_date_idx").on(t.serviceDate),
    index("visits_patient_idx").on(t.patientId),
  ],
);

export const VISIT_RUN_STATUSES = ["scheduled", "running", "done", "cancelled"] as const;
export type VisitRunStatus = (typeof VISIT_RUN_STATUSES)[number];

export const visitRuns = pgTable(
  "visit_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listId: uuid("list_id")
      .notNull()
      .references(() => visitLists.id, { onDelete: "cascade" }),
    status: text("status").$type<VisitRunStatus>().notNull(),
    /** When the run may start (now, or e.g. the evening before). */
    runAt: utc("run_at").notNull(),
    startedAt: utc("started_at"),
    finishedAt: utc("finished_at"),
    total: integer("total").notNull().default(0),
    createdBy: text("created_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("visit_runs_status_idx").on(t.status, t.runAt)],
);
