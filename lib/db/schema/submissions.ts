import { facilities } from "./facilities";
import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** States of a submission (authorization request or claim): see lib/submissions/states.ts (docs/decisions/062). */
export const SUBMISSION_STATUSES = [
  "draft",
  "queued",
  "sent",
  "pended",
  "complete",
  "partial",
  "denied",
  "rejected",
  "failed",
  "cancelled",
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const SUBMISSION_KINDS = ["preauthorization", "claim", "prescription"] as const;
export type SubmissionKind = (typeof SUBMISSION_KINDS)[number];

/** Where a state change came from, for the timeline. */
export const TRANSITION_SOURCES = ["user", "api", "platform", "webhook", "poll", "system"] as const;
export type TransitionSource = (typeof TRANSITION_SOURCES)[number];

/**
 * A Claim (use = preauthorization or claim), stored before it is sent. The business identifier
 * is fixed when the submission is queued and reused on every retry, so the platform can never
 * receive it twice as two claims.
 */
export const submissions = pgTable(
  "submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * The short number staff say and search ("C-1024", lib/submissions/labels.ts): given by the
     * database once, never reused, unique in the clinic's database (docs/decisions/122).
     */
    number: integer("number").generatedByDefaultAsIdentity({ startWith: 1001 }).notNull(),
    kind: text("kind").$type<SubmissionKind>().notNull(),
    status: text("status").$type<SubmissionStatus>().notNull().default("draft"),
    /** Claim.identifier[0]; set when queued. */
    identifierSystem: text("identifier_system"),
    identifierValue: text("identifier_value"),
    /**
     * The patient's national ID / Iqama — what `Claim.patient` names on the exchange — NOT
     * `patients.id` (a UUID): join on `patients.national_id`. The column keeps its name
     * (docs/decisions/062); the code calls it what it holds, so `patientId` means the record's UUID
     * everywhere (decision 062 amended). Patient data: never logged.
     */
    patientNationalId: text("patient_id").notNull(),
    insurerId: text("insurer_id"),
    /** The FHIR Claim exactly as sent (or to be sent). */
    claim: jsonb("claim").$type<Record<string, unknown>>().notNull(),
    /** A draft's form values as the user left them (restored when the draft is reopened). */
    form: jsonb("form").$type<Record<string, unknown>>(),
    /** The platform's Claim id, once it has accepted the claim. */
    platformId: text("platform_id"),
    /** The latest ClaimResponse, exactly as received. */
    response: jsonb("response").$type<Record<string, unknown>>(),
    /** What the portal read from it (lib/fhir readClaimResponse view): decisions, amounts, reasons. */
    responseView: jsonb("response_view").$type<Record<string, unknown>>(),
    /** The platform's reasons for `rejected`, or the last error for `failed`. */
    errors: jsonb("errors").$type<{ code?: string; status?: number; diagnostics?: string; resolution?: string; field?: string }[]>(),
    /** Money in minor units (halalas), for lists and dashboards; the Claim holds the exact values too. */
    totalMinor: integer("total_minor"),
    currency: text("currency"),
    attempts: integer("attempts").notNull().default(0),
    /** When the outbox worker may next try; null when there is nothing to send. */
    nextAttemptAt: utc("next_attempt_at"),
    /** The worker that holds this row until `lease_until` (crash-safe claim of work). */
    leaseOwner: text("lease_owner"),
    leaseUntil: utc("lease_until"),
    lastRequestId: text("last_request_id"),
    /** Fix-and-resubmit: the rejected submission this one replaces. */
    replacesId: uuid("replaces_id"),
    /** A claim made from a prior authorization. */
    authorizationId: uuid("authorization_id"),
    /** An appeal (docs/decisions/081): the decided claim whose denied or cut lines it re-opens. */
    appealOfId: uuid("appeal_of_id"),
    /** The facility it goes out from (its certificate and licence); null = the main facility. */
    facilityId: uuid("facility_id").references(() => facilities.id),
    /** ui, exchange-api, claims-api, gateway. */
    channel: text("channel").notNull().default("ui"),
    createdBy: text("created_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
    updatedAt: utc("updated_at").notNull().defaultNow(),
    sentAt: utc("sent_at"),
    decidedAt: utc("decided_at"),
  },
  (t) => [
    uniqueIndex("submissions_identifier_uq").on(t.identifierSystem, t.identifierValue),
    uniqueIndex("submissions_platform_id_uq").on(t.platformId),
    uniqueIndex("submissions_number_uq").on(t.number),
    index("submissions_due_idx").on(t.nextAttemptAt).where(sql`${t.nextAttemptAt} is not null`),
    index("submissions_status_created_idx").on(t.status, t.createdAt.desc()),
    index("submissions_patient_idx").on(t.patientNationalId, t.createdAt.desc()),
    index("submissions_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("submissions_appeal_of_idx").on(t.appealOfId).where(sql`${t.appealOfId} is not null`),
  ],
);

/** The timeline of a submission: every state change with its source and time (UTC). */
export const submissionEvents = pgTable(
  "submission_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    at: utc("at").notNull().defaultNow(),
    fromStatus: text("from_status").$type<SubmissionStatus>(),
    toStatus: text("to_status").$type<SubmissionStatus>().notNull(),
    source: text("source").$type<TransitionSource>().notNull(),
    requestId: text("request_id"),
    /** Short, patient-free detail: HTTP status, error code, attempt number. */
    detail: jsonb("detail").$type<Record<string, unknown>>(),
  },
  (t) => [index("submission_events_submission_idx").on(t.submissionId, t.at)],
);

/** Webhook deliveries already seen, by `webhook-id`: the same delivery is applied once. */
export const webhookReceipts = pgTable("webhook_receipts", {
  webhookId: text("webhook_id").primaryKey(),
  receivedAt: utc("received_at").notNull().defaultNow(),
  event: text("event").notNull(),
  claimId: text("claim_id"),
  status: text("status"),
  /** applied, ignored, deferred (see lib/pipeline/webhooks.ts). */
  result: text("result").notNull(),
});

/**
 * Status changes for open browsers (Server-Sent Events). Written in the same transaction as the
 * change, announced with NOTIFY, and read by every portal instance, so each delivers to its own
 * connections. Rows older than a day are deleted.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: utc("at").notNull().defaultNow(),
    kind: text("kind").notNull(),
    submissionId: uuid("submission_id"),
    submissionKind: text("submission_kind").$type<SubmissionKind>(),
    status: text("status").$type<SubmissionStatus>(),
    /** Roles allowed to receive the event. */
    audience: text("audience").array().$type<string[]>().notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>(),
  },
  (t) => [index("live_events_at_idx").on(t.at)],
);
