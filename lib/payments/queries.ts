import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";

/**
 * Reads of the Payments area: remittances with their matched lines, what each claim was paid, the
 * accounts-receivable aging (adjudicated, not yet paid in full) and paid vs adjudicated per insurer.
 * A claim's benefit is the payer's share of its latest ClaimResponse as the payer stated it (the
 * stored reader's view `total.benefit`, lib/submissions statedAmounts; halalas). What a remittance
 * line settles of it is `settled_minor` (the payment component, else the amount plus the fees), so a
 * claim paid its benefit less an early-payment fee or the exchange's fee is paid in full, and a
 * reversal (negative) puts what it takes back into accounts receivable again (docs/decisions/098).
 */

export interface RemittanceSummary {
  id: string;
  platformId: string;
  paymentIdentifier: string | null;
  insurerId: string | null;
  paymentDate: string;
  amountMinor: number;
  currency: string;
  receivedAt: Date;
  paidAt: Date | null;
  clearedAt: Date | null;
  lines: number;
  unmatched: number;
  shortPaid: number;
  /** Sum of the lines' amounts (what reached the clinic), and paymentAmount − that (0: adds up to the halala). */
  linesMinor: number;
  unallocatedMinor: number;
  /** Fees the payer and the exchange kept (early-payment discount, exchange fee), net of reversals. */
  earlyFeeMinor: number;
  exchangeFeeMinor: number;
  reversals: number;
  /** Lines whose components do not add up to their amount. */
  componentGaps: number;
}

export interface RemittanceLine {
  position: number;
  requestPlatformId: string | null;
  requestIdentifierValue: string | null;
  /** payment | adjustment | advance | reversal | other. */
  kind: string;
  /** What reached the clinic (signed). */
  amountMinor: number;
  /** What this line settles of the claim (signed): the payment component, else amount + fees. */
  settledMinor: number;
  paymentMinor: number | null;
  earlyFeeMinor: number | null;
  exchangeFeeMinor: number | null;
  /** amount − (payment − fees) when the components do not add up. */
  componentGapMinor: number | null;
  /** The detail a reversal takes back. */
  predecessorValue: string | null;
  submissionId: string | null;
  /** The matched claim's benefit (what the payer decided to pay), null when unmatched or unknown. */
  benefitMinor: number | null;
  /** Everything settled for that claim, in every remittance, net of reversals. */
  paidTotalMinor: number | null;
  /** benefit − settled when above 0 (the claim is short by it); else 0. */
  shortByMinor: number;
  status: string | null;
  /** Paid less than its benefit (over all remittances). */
  shortPaid: boolean;
}

export interface PaymentNoticeRow {
  paymentStatus: string;
  outcome: string;
  error: string | null;
  sentAt: Date;
  requestId: string;
}

type Num = string | number | null;
const num = (v: Num): number | null => (v === null || v === undefined ? null : Number(v));

/** The benefit as stated: the stored view's named total (one reading, lib/submissions statedAmounts), else the raw total. */
const BENEFIT = sql`coalesce((s.response_view -> 'total' -> 'benefit' ->> 'minor')::bigint, dashboard_total_minor(s.response, 'benefit'), 0)`;

/** Per claim: what its lines settled (net of reversals) — not what reached the clinic, which is less by the fees. */
const paidPerClaim = sql`(SELECT submission_id, sum(settled_minor) AS paid FROM remittance_lines WHERE submission_id IS NOT NULL GROUP BY submission_id)`;

/** A fee counted with its line's sign: a reversal gives its fees back. */
const signedFee = (column: string) => sql.raw(`coalesce(sum(CASE WHEN l.kind = 'reversal' THEN -l.${column} ELSE l.${column} END), 0)`);

export async function listRemittances(db: Db, limit = 100): Promise<RemittanceSummary[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT r.id, r.platform_id, r.payment_identifier, r.insurer_id, r.payment_date::text AS payment_date, r.amount_minor, r.currency,
          r.received_at, r.paid_at, r.cleared_at,
          count(l.position) AS lines,
          count(l.position) FILTER (WHERE l.submission_id IS NULL AND l.kind <> 'advance') AS unmatched,
          count(l.position) FILTER (WHERE l.submission_id IS NOT NULL AND l.kind <> 'reversal' AND p.paid < ${BENEFIT}) AS short_paid,
          coalesce(sum(l.amount_minor), 0) AS lines_minor, ${signedFee("early_fee_minor")} AS early_fee, ${signedFee("exchange_fee_minor")} AS exchange_fee,
          count(l.position) FILTER (WHERE l.kind = 'reversal') AS reversals, count(l.position) FILTER (WHERE l.component_gap_minor IS NOT NULL) AS component_gaps
        FROM remittances r
        LEFT JOIN remittance_lines l ON l.remittance_id = r.id
        LEFT JOIN submissions s ON s.id = l.submission_id
        LEFT JOIN ${paidPerClaim} p ON p.submission_id = l.submission_id
        GROUP BY r.id
        ORDER BY r.payment_date DESC, r.received_at DESC
        LIMIT ${limit}`,
  );
  return rows.map(summaryOf);
}

function summaryOf(r: Record<string, unknown>): RemittanceSummary {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    id: r.id as string,
    platformId: r.platform_id as string,
    paymentIdentifier: (r.payment_identifier as string | null) ?? null,
    insurerId: (r.insurer_id as string | null) ?? null,
    paymentDate: r.payment_date as string,
    amountMinor: Number(r.amount_minor),
    currency: r.currency as string,
    receivedAt: date(r.received_at)!,
    paidAt: date(r.paid_at),
    clearedAt: date(r.cleared_at),
    lines: Number(r.lines ?? 0),
    unmatched: Number(r.unmatched ?? 0),
    shortPaid: Number(r.short_paid ?? 0),
    linesMinor: Number(r.lines_minor ?? 0),
    unallocatedMinor: Number(r.amount_minor) - Number(r.lines_minor ?? 0),
    earlyFeeMinor: Number(r.early_fee ?? 0),
    exchangeFeeMinor: Number(r.exchange_fee ?? 0),
    reversals: Number(r.reversals ?? 0),
    componentGaps: Number(r.component_gaps ?? 0),
  };
}

export async function getRemittance(db: Db, id: string): Promise<{ remittance: RemittanceSummary; lines: RemittanceLine[]; notices: PaymentNoticeRow[] } | undefined> {
  const [head] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT r.id, r.platform_id, r.payment_identifier, r.insurer_id, r.payment_date::text AS payment_date, r.amount_minor, r.currency,
          r.received_at, r.paid_at, r.cleared_at, 0 AS lines, 0 AS unmatched, 0 AS short_paid,
          (SELECT coalesce(sum(l.amount_minor), 0) FROM remittance_lines l WHERE l.remittance_id = r.id) AS lines_minor,
          (SELECT ${signedFee("early_fee_minor")} FROM remittance_lines l WHERE l.remittance_id = r.id) AS early_fee,
          (SELECT ${signedFee("exchange_fee_minor")} FROM remittance_lines l WHERE l.remittance_id = r.id) AS exchange_fee
        FROM remittances r WHERE r.id = ${id}`,
  );
  if (!head) return undefined;
  const lines = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT l.position, l.request_platform_id, l.request_identifier_value, l.kind, l.amount_minor, l.settled_minor, l.payment_minor,
          l.early_fee_minor, l.exchange_fee_minor, l.component_gap_minor, l.predecessor_value, l.submission_id,
          CASE WHEN s.id IS NULL THEN NULL ELSE ${BENEFIT} END AS benefit, p.paid, s.status
        FROM remittance_lines l
        LEFT JOIN submissions s ON s.id = l.submission_id
        LEFT JOIN ${paidPerClaim} p ON p.submission_id = l.submission_id
        WHERE l.remittance_id = ${id}
        ORDER BY l.position`,
  );
  const notices = await queryRows<{ payment_status: string; outcome: string; error: string | null; sent_at: string; request_id: string }>(
    db,
    sql`SELECT payment_status, outcome, error, sent_at, request_id FROM payment_notices WHERE remittance_id = ${id} ORDER BY sent_at`,
  );
  const mapped = lines.map((l): RemittanceLine => {
    const benefit = num(l.benefit as Num);
    const paid = num(l.paid as Num);
    const shortBy = benefit !== null && paid !== null ? Math.max(0, benefit - paid) : 0;
    return {
      position: Number(l.position),
      requestPlatformId: (l.request_platform_id as string | null) ?? null,
      requestIdentifierValue: (l.request_identifier_value as string | null) ?? null,
      kind: String(l.kind),
      amountMinor: Number(l.amount_minor),
      settledMinor: Number(l.settled_minor),
      paymentMinor: num(l.payment_minor as Num),
      earlyFeeMinor: num(l.early_fee_minor as Num),
      exchangeFeeMinor: num(l.exchange_fee_minor as Num),
      componentGapMinor: num(l.component_gap_minor as Num),
      predecessorValue: (l.predecessor_value as string | null) ?? null,
      submissionId: (l.submission_id as string | null) ?? null,
      benefitMinor: benefit,
      paidTotalMinor: paid,
      shortByMinor: shortBy,
      status: (l.status as string | null) ?? null,
      // A reversal line is not "short": it takes money back; the claim's own page and the aging show what is open.
      shortPaid: l.kind !== "reversal" && shortBy > 0,
    };
  });
  return {
    remittance: {
      ...summaryOf(head),
      lines: mapped.length,
      unmatched: mapped.filter((l) => !l.submissionId && l.kind !== "advance").length,
      shortPaid: mapped.filter((l) => l.shortPaid).length,
      reversals: mapped.filter((l) => l.kind === "reversal").length,
      componentGaps: mapped.filter((l) => l.componentGapMinor !== null).length,
    },
    lines: mapped,
    notices: notices.map((n) => ({ paymentStatus: n.payment_status, outcome: n.outcome, error: n.error, sentAt: new Date(n.sent_at), requestId: n.request_id })),
  };
}

/** "Paid on … in remittance …" for claims: the latest remittance line of each, with the claim's total paid. */
export interface ClaimPayment {
  submissionId: string;
  paidMinor: number;
  benefitMinor: number;
  paymentDate: string;
  remittanceId: string;
  /** The payer's payment identifier (else the platform id) — what staff quote. */
  remittance: string;
  shortPaid: boolean;
}

export async function claimPayments(db: Db, submissionIds: readonly string[]): Promise<Map<string, ClaimPayment>> {
  if (submissionIds.length === 0) return new Map();
  const ids = sql.join(
    submissionIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await queryRows<{ submission_id: string; paid: Num; benefit: Num; payment_date: string; remittance_id: string; remittance: string }>(
    db,
    sql`SELECT DISTINCT ON (l.submission_id) l.submission_id, p.paid, ${BENEFIT} AS benefit, r.payment_date::text AS payment_date, r.id AS remittance_id,
          coalesce(r.payment_identifier, r.platform_id) AS remittance
        FROM remittance_lines l
        JOIN remittances r ON r.id = l.remittance_id
        JOIN submissions s ON s.id = l.submission_id
        JOIN ${paidPerClaim} p ON p.submission_id = l.submission_id
        WHERE l.submission_id::text IN (${ids})
        ORDER BY l.submission_id, r.payment_date DESC, r.received_at DESC`,
  );
  return new Map(
    rows.map((r) => [
      r.submission_id,
      {
        submissionId: r.submission_id,
        paidMinor: Number(r.paid),
        benefitMinor: Number(r.benefit),
        paymentDate: r.payment_date,
        remittanceId: r.remittance_id,
        remittance: r.remittance,
        shortPaid: Number(r.paid) < Number(r.benefit),
      },
    ]),
  );
}

export const AGING_BUCKETS = ["0-30", "31-60", "61-90", "90+"] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export interface AgingRow {
  insurerId: string;
  /** Outstanding (benefit − paid) and number of claims per bucket. */
  buckets: Record<AgingBucket, { minor: number; count: number }>;
  totalMinor: number;
}

/**
 * Accounts receivable: adjudicated claims (complete or partial) whose payer share is not yet paid in
 * full, by days since the decision (0–30, 31–60, 61–90, 90+), per insurer. `asOf` is the instant the
 * ages are counted to.
 */
export async function arAging(db: Db, asOf: Date): Promise<AgingRow[]> {
  const rows = await queryRows<{ insurer_id: string; bucket: AgingBucket; outstanding: Num; claims: Num }>(
    db,
    sql`WITH open AS (
          SELECT coalesce(s.insurer_id, '') AS insurer_id,
            ${BENEFIT} - coalesce(p.paid, 0) AS outstanding,
            floor(extract(epoch FROM (${asOf.toISOString()}::timestamptz - coalesce(s.decided_at, s.updated_at))) / 86400) AS age
          FROM submissions s
          LEFT JOIN ${paidPerClaim} p ON p.submission_id = s.id
          WHERE s.kind = 'claim' AND s.status IN ('complete', 'partial')
        )
        SELECT insurer_id,
          CASE WHEN age <= 30 THEN '0-30' WHEN age <= 60 THEN '31-60' WHEN age <= 90 THEN '61-90' ELSE '90+' END AS bucket,
          sum(outstanding) AS outstanding, count(*) AS claims
        FROM open WHERE outstanding > 0
        GROUP BY 1, 2`,
  );
  const byInsurer = new Map<string, AgingRow>();
  for (const r of rows) {
    const row =
      byInsurer.get(r.insurer_id) ??
      ({ insurerId: r.insurer_id, totalMinor: 0, buckets: Object.fromEntries(AGING_BUCKETS.map((b) => [b, { minor: 0, count: 0 }])) as AgingRow["buckets"] } satisfies AgingRow);
    row.buckets[r.bucket] = { minor: Number(r.outstanding), count: Number(r.claims) };
    row.totalMinor += Number(r.outstanding);
    byInsurer.set(r.insurer_id, row);
  }
  return [...byInsurer.values()].sort((a, b) => b.totalMinor - a.totalMinor || a.insurerId.localeCompare(b.insurerId));
}

export interface PaidVsAdjudicatedRow {
  insurerId: string;
  adjudicatedMinor: number;
  paidMinor: number;
  claims: number;
  paidClaims: number;
}

/** Per insurer: the payer share of claims decided in [start, end) against what has been paid for them. */
export async function paidVsAdjudicated(db: Db, range: { start: Date; end: Date }): Promise<PaidVsAdjudicatedRow[]> {
  const rows = await queryRows<{ insurer_id: string; adjudicated: Num; paid: Num; claims: Num; paid_claims: Num }>(
    db,
    sql`SELECT coalesce(s.insurer_id, '') AS insurer_id, sum(${BENEFIT}) AS adjudicated, sum(coalesce(p.paid, 0)) AS paid,
          count(*) AS claims, count(p.paid) AS paid_claims
        FROM submissions s
        LEFT JOIN ${paidPerClaim} p ON p.submission_id = s.id
        WHERE s.kind = 'claim' AND s.status IN ('complete', 'partial')
          AND s.decided_at >= ${range.start.toISOString()}::timestamptz AND s.decided_at < ${range.end.toISOString()}::timestamptz
        GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
  return rows.map((r) => ({ insurerId: r.insurer_id, adjudicatedMinor: Number(r.adjudicated ?? 0), paidMinor: Number(r.paid ?? 0), claims: Number(r.claims), paidClaims: Number(r.paid_claims) }));
}
