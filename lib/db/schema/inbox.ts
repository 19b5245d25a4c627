import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** How a message reached the portal. */
export const INBOX_SOURCES = ["poll", "webhook", "sync", "batch"] as const;
export type InboxSource = (typeof INBOX_SOURCES)[number];

/**
 * received → applied | unmatched | failed (retried with back-off while attempts remain) and, by a
 * person, unmatched | failed → dismissed | applied (matched to a submission). See lib/inbox.
 */
export const INBOX_STATUSES = ["received", "applied", "unmatched", "failed", "dismissed"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/** What the inbox read from a message for the "Received, not matched" page (patient data: never logged). */
export interface InboxSummary {
  resourceType?: string;
  /** The payer's licence or name as the message gives it. */
  payer?: string;
  /** The patient as the message names him (identifier value or display). */
  patient?: string;
  /** Our claim identifier the resource names (ClaimResponse.request, Task.focus …). */
  claimIdentifier?: string;
  outcome?: string;
  disposition?: string;
  /** Total benefit as the payer states it (decimal string) and its currency. */
  total?: string;
  currency?: string;
  preAuthRef?: string;
  /** The reissue reason code when the answer carries one. */
  reissueReason?: string;
}

/**
 * Every message the exchange sent the clinic, stored whole before it is routed (lib/inbox; issue
 * 40). One row per message id: a second delivery of the same message is the same row.
 */
export const inboxMessages = pgTable(
  "inbox_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The message Bundle id, the webhook id, or `sha256:<hex>` of the body when it names none. */
    messageId: text("message_id").notNull(),
    source: text("source").$type<InboxSource>().notNull(),
    /** The facility (its id) whose port received it; null for the main port. */
    facilityId: text("facility_id"),
    event: text("event"),
    /** The message as received: a webhook body byte for byte; a poll reply's message as its JSON entry. */
    body: text("body").notNull(),
    /** REST `resource.available`: the resource the announcement pointed to, as read. */
    fetched: text("fetched"),
    summary: jsonb("summary").$type<InboxSummary>(),
    receivedAt: utc("received_at").notNull().defaultNow(),
    status: text("status").$type<InboxStatus>().notNull().default("received"),
    attempts: integer("attempts").notNull().default(0),
    /** When the router may take it (again); while a router holds it, the end of its lease. */
    nextAttemptAt: utc("next_attempt_at"),
    /** Why it failed or matched nothing, in words without patient data. */
    lastError: text("last_error"),
    /** Where it went: the submission it was applied to or matched with. */
    submissionId: uuid("submission_id"),
    /** Who settled it by hand (dismissed or matched), when and why. */
    settledBy: text("settled_by"),
    settledAt: utc("settled_at"),
    settledReason: text("settled_reason"),
    updatedAt: utc("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("inbox_messages_message_id").on(t.messageId),
    index("inbox_messages_due").on(t.nextAttemptAt).where(sql`status in ('received','failed')`),
    index("inbox_messages_status").on(t.status, t.receivedAt),
  ],
);

/**
 * The poll-request a port is about to send or has sent without storing its reply yet: re-sent
 * with the same ids after a crash, the exchange answers it again (guide 6.4); a new one is made
 * only after the reply is stored, and that new request is what clears the exchange's queue.
 */
export const inboxPolls = pgTable("inbox_polls", {
  port: text("port").primaryKey(),
  requestId: text("request_id").notNull(),
  createdAt: utc("created_at").notNull().defaultNow(),
});
