import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { insurers } from "./patients";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Payments (docs/decisions/047): remittances the payer sends through the platform (PaymentReconciliation),
 * their per-claim detail lines matched to the portal's claims, the payment notices the clinic sends
 * back (paid, then cleared), and the insurers' filing windows (deadlines). Money in halalas.
 */

/** One PaymentReconciliation as received; unique by the platform's resource id (deliveries repeat). */
export const remittances = pgTable(
  "remittances",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** PaymentReconciliation.id on the platform (what a PaymentNotice's `payment` refers to). */
    platformId: text("platform_id").notNull(),
    /** paymentIdentifier (the payer's payment / transfer number). */
    paymentIdentifier: text("payment_identifier"),
    /** The payer's Organization id (`payer-…`) when the resource names it. */
    insurerId: text("insurer_id"),
    paymentDate: date("payment_date", { mode: "string" }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    /** The resource exactly as received. */
    resource: jsonb("resource").$type<Record<string, unknown>>().notNull(),
    /** poll | webhook; the message or webhook id it came in. */
    source: text("source").notNull(),
    messageId: text("message_id"),
    receivedAt: utc("received_at").notNull().defaultNow(),
    /** Billing marked the money received (paid notice sent) / cleared at the bank (cleared notice sent). */
    paidAt: utc("paid_at"),
    clearedAt: utc("cleared_at"),
  },
  (t) => [uniqueIndex("remittances_platform_id_uq").on(t.platformId), index("remittances_payment_date_idx").on(t.paymentDate.desc())],
);

/** A detail line of a remittance: one claim's payment, matched to a submission (by platform id, then identifier) or not. */
export const remittanceLines = pgTable(
  "remittance_lines",
  {
    remittanceId: uuid("remittance_id")
      .notNull()
      .references(() => remittances.id, { onDelete: "cascade" }),
    /** Position in PaymentReconciliation.detail (0-based). */
    position: integer("position").notNull(),
    /** detail.request as given: the platform's Claim id and/or the claim's business identifier. */
    requestPlatformId: text("request_platform_id"),
    requestIdentifierSystem: text("request_identifier_system"),
    requestIdentifierValue: text("request_identifier_value"),
    /** detail.type code (payment, adjustment, advance …). */
    type: text("type"),
    /** payment | adjustment | advance | reversal | other (lib/fhir readPaymentReconciliation). */
    kind: text("kind").notNull().default("payment"),
    /** detail.amount: what reached the clinic, signed (a reversal is negative). */
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    /** What settles the claim: the payment component, else the amount plus the fees (docs/decisions/098). */
    settledMinor: bigint("settled_minor", { mode: "number" }).notNull(),
    /** The exchange's components as stated: component-payment, -early-fee, -nphies-fee. */
    paymentMinor: bigint("payment_minor", { mode: "number" }),
    earlyFeeMinor: bigint("early_fee_minor", { mode: "number" }),
    exchangeFeeMinor: bigint("exchange_fee_minor", { mode: "number" }),
    /** amount − (payment − fees) when the components do not add up; null when they do. */
    componentGapMinor: bigint("component_gap_minor", { mode: "number" }),
    /** detail.identifier and detail.predecessor (the detail a reversal takes back). */
    identifierValue: text("identifier_value"),
    predecessorValue: text("predecessor_value"),
    /** The matched claim (null: unmatched). */
    submissionId: uuid("submission_id"),
  },
  (t) => [primaryKey({ columns: [t.remittanceId, t.position] }), index("remittance_lines_submission_idx").on(t.submissionId)],
);

export const PAYMENT_NOTICE_STATUSES = ["paid", "cleared"] as const;
export type PaymentNoticeStatus = (typeof PAYMENT_NOTICE_STATUSES)[number];

/** A PaymentNotice sent (or tried) for a remittance: at most one accepted per payment status. */
export const paymentNotices = pgTable(
  "payment_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    remittanceId: uuid("remittance_id")
      .notNull()
      .references(() => remittances.id, { onDelete: "cascade" }),
    paymentStatus: text("payment_status").$type<PaymentNoticeStatus>().notNull(),
    /** accepted (the platform acknowledged it) | failed (error kept; billing may try again). */
    outcome: text("outcome").notNull(),
    requestId: text("request_id").notNull(),
    notice: jsonb("notice").$type<Record<string, unknown>>().notNull(),
    error: text("error"),
    sentBy: text("sent_by"),
    sentAt: utc("sent_at").notNull().defaultNow(),
  },
  (t) => [index("payment_notices_remittance_idx").on(t.remittanceId, t.sentAt)],
);

/**
 * Filing windows per insurer (administrators set them): a claim must be submitted within
 * `submission_days` of its service date, a rejected one resubmitted within `resubmission_days` of the
 * rejection. One row per insurer (the insurer itself stays in `insurers`).
 */
export const insurerFilingWindows = pgTable("insurer_filing_windows", {
  insurerId: text("insurer_id")
    .primaryKey()
    .references(() => insurers.id, { onDelete: "cascade" }),
  submissionDays: integer("submission_days").notNull(),
  resubmissionDays: integer("resubmission_days").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: utc("updated_at").notNull().defaultNow(),
});
