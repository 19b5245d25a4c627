import { and, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db, adjudicationHourly as h, liveEvents, patients, submissions } from "@/lib/db";
import type { DashboardRange } from "./range";

/*
 * The dashboard's reads. Everything but the median comes from `adjudication_hourly` (kept by
 * triggers, see drizzle/0005_dashboard_triggers.sql); money is summed in SQL as bigint minor units
 * and returned as decimal strings of minor units, never as floats.
 */

export const DECIDED = ["complete", "partial", "denied"] as const;

export interface MoneyTotals {
  count: number;
  submittedMinor: string;
  eligibleMinor: string;
  benefitMinor: string;
  copayMinor: string;
}

export interface TotalsRow extends MoneyTotals {
  key: string;
}

export interface RateRow {
  key: string;
  decided: number;
  approved: number;
  partial: number;
  denied: number;
}

export interface ReasonRow {
  kind: string;
  status: string;
  reason: string;
  count: number;
}

export interface TrendRow extends MoneyTotals {
  period: string;
}

const money = {
  count: sql<string>`coalesce(sum(${h.count}), 0)::text`,
  submittedMinor: sql<string>`coalesce(sum(${h.submittedMinor}), 0)::text`,
  eligibleMinor: sql<string>`coalesce(sum(${h.eligibleMinor}), 0)::text`,
  benefitMinor: sql<string>`coalesce(sum(${h.benefitMinor}), 0)::text`,
  copayMinor: sql<string>`coalesce(sum(${h.copayMinor}), 0)::text`,
};

function inRange(range: DashboardRange, ...more: (SQL | undefined)[]): SQL | undefined {
  return and(gte(h.hour, range.start), lt(h.hour, range.end), range.insurerId ? eq(h.insurerId, range.insurerId) : undefined, ...more);
}

type RawMoney = { count: string; submittedMinor: string; eligibleMinor: string; benefitMinor: string; copayMinor: string };
const toTotals = (r: RawMoney): MoneyTotals => ({
  count: Number(r.count),
  submittedMinor: r.submittedMinor,
  eligibleMinor: r.eligibleMinor,
  benefitMinor: r.benefitMinor,
  copayMinor: r.copayMinor,
});

/** Adjudicated claims (complete, partial, denied): money per insurer, largest submitted first. */
export async function totalsByInsurer(db: Db, range: DashboardRange): Promise<TotalsRow[]> {
  const rows = await db
    .select({ key: h.insurerId, ...money })
    .from(h)
    .where(inRange(range, eq(h.kind, "claim"), inArray(h.status, [...DECIDED])))
    .groupBy(h.insurerId)
    .orderBy(sql`sum(${h.submittedMinor}) desc`, h.insurerId);
  return rows.map((r) => ({ key: r.key, ...toTotals(r) }));
}

/** Adjudicated claims per benefit category (of the claim's first item). */
export async function totalsByCategory(db: Db, range: DashboardRange): Promise<TotalsRow[]> {
  const rows = await db
    .select({ key: h.category, ...money })
    .from(h)
    .where(inRange(range, eq(h.kind, "claim"), inArray(h.status, [...DECIDED])))
    .groupBy(h.category)
    .orderBy(sql`sum(${h.submittedMinor}) desc`, h.category);
  return rows.map((r) => ({ key: r.key, ...toTotals(r) }));
}

/** Prior authorizations decided, per insurer: approved (complete), partial, denied. */
export async function authorizationRates(db: Db, range: DashboardRange): Promise<RateRow[]> {
  const rows = await db
    .select({
      key: h.insurerId,
      approved: sql<string>`coalesce(sum(${h.count}) filter (where ${h.status} = 'complete'), 0)::text`,
      partial: sql<string>`coalesce(sum(${h.count}) filter (where ${h.status} = 'partial'), 0)::text`,
      denied: sql<string>`coalesce(sum(${h.count}) filter (where ${h.status} = 'denied'), 0)::text`,
    })
    .from(h)
    .where(inRange(range, eq(h.kind, "preauthorization"), inArray(h.status, [...DECIDED])))
    .groupBy(h.insurerId)
    .orderBy(h.insurerId);
  return rows.map((r) => {
    const approved = Number(r.approved);
    const partial = Number(r.partial);
    const denied = Number(r.denied);
    return { key: r.key, approved, partial, denied, decided: approved + partial + denied };
  });
}

/** Why submissions were turned down: platform errors (rejected, failed) and dispositions (denied, partial), most frequent first. */
export async function rejectionReasons(db: Db, range: DashboardRange, limit = 10): Promise<ReasonRow[]> {
  const rows = await db
    .select({ kind: h.kind, status: h.status, reason: h.reason, count: sql<string>`sum(${h.count})::text` })
    .from(h)
    .where(inRange(range, inArray(h.status, ["rejected", "failed", "denied", "partial"]), sql`${h.reason} <> ''`))
    .groupBy(h.kind, h.status, h.reason)
    .having(sql`sum(${h.count}) > 0`)
    .orderBy(sql`sum(${h.count}) desc`, h.kind, h.status, h.reason)
    .limit(limit);
  return rows.map((r) => ({ kind: r.kind, status: r.status, reason: r.reason, count: Number(r.count) }));
}

/**
 * Median seconds from sent to adjudicated of claims created in the range (exact; an index-only
 * scan of `submissions_dashboard_decided_idx`). Every claim with a decision time counts, including
 * one cancelled after its decision. Null when none was decided.
 */
export async function medianDecisionSeconds(db: Db, range: DashboardRange): Promise<{ median: number | null; count: number }> {
  const insurer = range.insurerId ? sql`and insurer_id = ${range.insurerId}` : sql``;
  const [row] = await queryRows<{ median: string | null; count: string }>(db, sql`
    select percentile_cont(0.5) within group (order by extract(epoch from decided_at - sent_at))::text as median, count(*)::text as count
    from submissions
    where sent_at is not null and decided_at is not null and kind = 'claim'
      and created_at >= ${range.start.toISOString()}::timestamptz and created_at < ${range.end.toISOString()}::timestamptz ${insurer}`);
  return { median: row?.median == null ? null : Math.round(Number(row.median)), count: Number(row?.count ?? 0) };
}

/** Adjudicated claims per clinic day or week (weeks start on Monday). */
export async function trend(db: Db, range: DashboardRange): Promise<TrendRow[]> {
  const period = sql<string>`to_char(date_trunc(${range.bucket}, ${h.hour} at time zone ${range.timeZone}), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ period, ...money })
    .from(h)
    .where(inRange(range, eq(h.kind, "claim"), inArray(h.status, [...DECIDED])))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((r) => ({ period: r.period, ...toTotals(r) }));
}

export interface StatusCount {
  kind: string;
  status: string;
  count: number;
}

/** Submissions by kind and status, created since `since` (the live board). */
export async function statusCounts(db: Db, since: Date): Promise<StatusCount[]> {
  const rows = await db
    .select({ kind: h.kind, status: h.status, count: sql<string>`sum(${h.count})::text` })
    .from(h)
    .where(gte(h.hour, since))
    .groupBy(h.kind, h.status)
    .having(sql`sum(${h.count}) > 0`);
  return rows.map((r) => ({ kind: r.kind, status: r.status, count: Number(r.count) }));
}

/** Every widget's data at once (the CSV export and the benchmark). */
export async function dashboardData(db: Db, range: DashboardRange) {
  const [byInsurer, byCategory, rates, reasons, median, trendRows] = await Promise.all([
    totalsByInsurer(db, range),
    totalsByCategory(db, range),
    authorizationRates(db, range),
    rejectionReasons(db, range),
    medianDecisionSeconds(db, range),
    trend(db, range),
  ]);
  return { byInsurer, byCategory, rates, reasons, median, trend: trendRows };
}
export type DashboardData = Awaited<ReturnType<typeof dashboardData>>;

/**
 * The latest submission events managers may see, with the patient's name (the live board's feed:
 * server-rendered, then re-read after live events, which carry no patient data themselves).
 */
export async function recentLiveEvents(db: Db, limit = 20) {
  const rows = await db
    .select({
      id: liveEvents.id,
      at: liveEvents.at,
      kind: liveEvents.kind,
      submissionKind: liveEvents.submissionKind,
      submissionId: liveEvents.submissionId,
      status: liveEvents.status,
      payload: liveEvents.payload,
      patient: sql<string | null>`${patients.givenName} || ' ' || ${patients.familyName}`,
    })
    .from(liveEvents)
    .leftJoin(submissions, eq(submissions.id, liveEvents.submissionId))
    .leftJoin(patients, eq(patients.nationalId, submissions.patientId))
    // Status changes and (issue 18) payers' information requests, their answers, and claims paid in remittances.
    .where(and(inArray(liveEvents.kind, ["submission.status", "information.request", "payment.remittance"]), sql`'manager' = any(${liveEvents.audience})`))
    .orderBy(desc(liveEvents.id))
    .limit(limit);
  return rows.map(({ payload, ...r }) => ({ ...r, at: r.at.toISOString(), note: typeof payload?.note === "string" ? payload.note : null }));
}
