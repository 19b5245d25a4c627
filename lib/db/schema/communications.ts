import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { submissions } from "./exchange";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** open → answered (our Communication accepted) → acknowledged (the payer's acknowledgement arrived). */
export const INFORMATION_REQUEST_STATUSES = ["open", "answered", "acknowledged"] as const;
export type InformationRequestStatus = (typeof INFORMATION_REQUEST_STATUSES)[number];

/**
 * A payer's CommunicationRequest about a claim or an authorization (docs/decisions/045), as received
 * by poll or webhook, and the clinic's answer (a Communication based on it). The CommunicationRequest
 * is stored exactly as received beside what the portal read from it; text fields may hold patient
 * data and are never logged.
 */
export const informationRequests = pgTable(
  "information_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The CommunicationRequest's id on the platform: one row per request (deliveries repeat). */
    platformRequestId: text("platform_request_id").notNull(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    status: text("status").$type<InformationRequestStatus>().notNull().default("open"),
    /** What the payer asks for, in its words (payload contentString, reasonCode text). */
    asks: jsonb("asks").$type<string[]>().notNull(),
    /** Attachment types the payer requests (codes or words from payload contentCodeableConcept / category). */
    attachmentTypes: jsonb("attachment_types").$type<string[]>().notNull(),
    /** occurrenceDateTime, occurrencePeriod.end, or the payer's due-date extension. */
    dueAt: utc("due_at"),
    receivedAt: utc("received_at").notNull().defaultNow(),
    /** The CommunicationRequest as received. */
    raw: jsonb("raw").$type<Record<string, unknown>>().notNull(),
    answerText: text("answer_text"),
    /** attachments.id of the files sent with the answer (they belong to the submission). */
    answerAttachmentIds: jsonb("answer_attachment_ids").$type<string[]>(),
    /** The Communication as sent. */
    communication: jsonb("communication").$type<Record<string, unknown>>(),
    answeredAt: utc("answered_at"),
    answeredBy: text("answered_by"),
    answerRequestId: text("answer_request_id"),
    acknowledgedAt: utc("acknowledged_at"),
    /** The acknowledgement as received. */
    acknowledgement: jsonb("acknowledgement").$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex("information_requests_platform_uq").on(t.platformRequestId),
    index("information_requests_submission_idx").on(t.submissionId, t.receivedAt),
    index("information_requests_open_idx").on(t.dueAt).where(sql`${t.status} = 'open'`),
  ],
);
