import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { submissions } from "./submissions";

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

/** sent (the exchange took our Communication) → acknowledged (the payer's acknowledgement arrived). */
export const EVIDENCE_STATUSES = ["sending", "sent", "acknowledged"] as const;
export type EvidenceStatus = (typeof EVIDENCE_STATUSES)[number];

/**
 * Information the clinic sends the payer unasked about a claim or an authorization (guide v2.7
 * 7.4.1, 7.4.2.3; docs/decisions/115): a Communication about it with no CommunicationRequest, text
 * and/or files, and the payer's acknowledgement. Owned by lib/evidence. The text may hold patient
 * data and is never logged; the files stay in `attachments`, linked to the submission.
 */
export const evidenceMessages = pgTable(
  "evidence_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    /** Our Communication's id (matched by the payer's acknowledgement `inResponseTo`). */
    communicationId: text("communication_id").notNull(),
    status: text("status").$type<EvidenceStatus>().notNull().default("sending"),
    text: text("text"),
    attachmentIds: jsonb("attachment_ids").$type<string[]>().notNull(),
    /** The claim lines the evidence is about (sequences), when the sender named them. */
    sequences: jsonb("sequences").$type<number[]>().notNull(),
    /** The Communication as sent, without the files' bytes. */
    communication: jsonb("communication").$type<Record<string, unknown>>().notNull(),
    createdAt: utc("created_at").notNull().defaultNow(),
    createdBy: text("created_by"),
    channel: text("channel").notNull().default("ui"),
    sentAt: utc("sent_at"),
    sendRequestId: text("send_request_id"),
    acknowledgedAt: utc("acknowledged_at"),
    acknowledgement: jsonb("acknowledgement").$type<Record<string, unknown>>(),
  },
  (t) => [uniqueIndex("evidence_messages_communication_uq").on(t.communicationId), index("evidence_messages_submission_idx").on(t.submissionId, t.createdAt)],
);
