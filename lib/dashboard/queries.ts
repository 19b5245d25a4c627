import { and, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db, adjudicationHourly as h, liveEvents, patients, submissions } from "@/lib/db";
import type { DashboardRange } from "./range";

/*
 * The dashboard's reads. Everything but the median comes from `adjudication_hourly` (kept by
 * triggers, see drizzle/0005_dashboard_triggers.sql), the median from `decision_time_histogram`
 * (drizzle/0013_dashboard_decision_histogram.sql); money is summed in SQL as bigint minor units
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

/** Width of a decision-time bucket: bucket b >= 1 holds [GROWTH^(b-1), GROWTH^b) seconds, bucket 0 under 1 s. */
export const DECISION_BUCKET_GROWTH = 1.05;

const DAY_MS = 86_400_000;
const utcDay = (t: Date, up: boolean) => new Date((up ? Math.ceil : Math.floor)(t.getTime() / DAY_MS) * DAY_MS);
function utcMonth(t: Date, up: boolean): Date {
  const floor = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
  return up && floor.getTime() < t.getTime() ? new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1)) : floor;
}

/**
 * [start, end) as pieces of the histogram's grains: whole UTC months, whole UTC days at their
 * edges, hours at the range's own edges (as the hourly rollup, an hour counts when it starts in
 * the range).
 */
export function decisionGrains(start: Date, end: Date): { grain: "hour" | "day" | "month"; from: Date; to: Date }[] {
  const pieces: { grain: "hour" | "day" | "month"; from: Date; to: Date }[] = [];
  const add = (grain: "hour" | "day" | "month", from: Date, to: Date) => {
    if (from < to) pieces.push({ grain, from, to });
  };
  const dayFrom = utcDay(start, true);
  const dayTo = utcDay(end, false);
  if (dayFrom >= dayTo) {
    add("hour", start, end);
    return pieces;
  }
  add("hour", start, dayFrom);
  add("hour", dayTo, end);
  const monthFrom = utcMonth(dayFrom, true);
  const monthTo = utcMonth(dayTo, false);
  if (monthFrom >= monthTo) {
    add("day", dayFrom, dayTo);
    return pieces;
  }
  add("day", dayFrom, monthFrom);
  add("day", monthTo, dayTo);
  add("month", monthFrom, monthTo);
  return pieces;
}

/** Bounds in seconds of a decision-time bucket. */
export function decisionBucketBounds(bucket: number): [number, number] {
  return bucket <= 0 ? [0, 1] : [DECISION_BUCKET_GROWTH ** (bucket - 1), DECISION_BUCKET_GROWTH ** bucket];
}

/** The median of a histogram (bucket → count): the mean of the two middle ranks, each interpolated inside its bucket. */
export function histogramMedian(buckets: { bucket: number; count: number }[]): { median: number | null; count: number } {
  const sorted = buckets.filter((b) => b.count > 0).sort((a, b) => a.bucket - b.bucket);
  const count = sorted.reduce((n, b) => n + b.count, 0);
  if (count === 0) return { median: null, count };
  const at = (rank: number) => {
    let before = 0;
    for (const b of sorted) {
      if (before + b.count >= rank) {
        const [lo, hi] = decisionBucketBounds(b.bucket);
        return lo + ((hi - lo) * (rank - before - 0.5)) / b.count;
      }
      before += b.count;
    }
    return decisionBucketBounds(sorted[sorted.length - 1]!.bucket)[1];
  };
  const median = count % 2 === 1 ? at((count + 1) / 2) : (at(count / 2) + at(count / 2 + 1)) / 2;
  return { median: Math.round(median), count };
}

/**
 * Median seconds from sent to adjudicated of claims created in the range, read from the
 * `decision_time_histogram` rollup (drizzle/0013_dashboard_decision_histogram.sql). Every claim
 * with a decision time counts, including one cancelled after its decision. Null when none was
 * decided. Precision: each middle decision time is placed inside its 5 % wide bucket, so the
 * result is within 5 % (+ 1 s: bucket 0 is [0, 1) s, and rounding) of the exact percentile_cont
 * median; `count` is exact.
 */
export async function medianDecisionSeconds(db: Db, range: DashboardRange): Promise<{ median: number | null; count: number }> {
  const pieces = decisionGrains(range.start, range.end);
  if (pieces.length === 0) return { median: null, count: 0 };
  const within = sql.join(
    pieces.map((p) => sql`(grain = ${p.grain} and period >= ${p.from.toISOString()}::timestamptz and period < ${p.to.toISOString()}::timestamptz)`),
    sql` or `,
  );
  const insurer = range.insurerId ? sql`and insurer_id = ${range.insurerId}` : sql``;
  const rows = await queryRows<{ bucket: number; count: string }>(db, sql`
    select bucket, sum(count)::text as count from decision_time_histogram
    where (${within}) ${insurer}
    group by bucket`);
  return histogramMedian(rows.map((r) => ({ bucket: Number(r.bucket), count: Number(r.count) })));
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
