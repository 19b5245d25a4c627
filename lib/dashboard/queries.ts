import { gte, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db, adjudicationHourly as h } from "@/lib/db";
import { managerLiveFeed } from "@/lib/submissions";
import type { DashboardRange } from "./range";

/*
 * The dashboard's reads. Totals, rates and reasons come from `adjudication_rollup` (whole UTC
 * months and days) and `adjudication_hourly` (the hours at a range's edges), the trend from the
 * hour rows of `adjudication_rollup`, the live board from `adjudication_hourly`, the median from
 * `decision_time_histogram` (all kept by triggers: drizzle/0005_dashboard_triggers.sql,
 * 0013_dashboard_decision_histogram.sql, 0014_dashboard_rollup_periods.sql); money is summed in SQL as bigint minor units
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

type RawMoney = { count: string; submittedMinor: string; eligibleMinor: string; benefitMinor: string; copayMinor: string };
const toTotals = (r: RawMoney): MoneyTotals => ({
  count: Number(r.count),
  submittedMinor: r.submittedMinor,
  eligibleMinor: r.eligibleMinor,
  benefitMinor: r.benefitMinor,
  copayMinor: r.copayMinor,
});

const MONEY_SUMS = sql.raw(`coalesce(sum(count), 0)::text as "count", coalesce(sum(submitted_minor), 0)::text as "submittedMinor",
  coalesce(sum(eligible_minor), 0)::text as "eligibleMinor", coalesce(sum(benefit_minor), 0)::text as "benefitMinor",
  coalesce(sum(copay_minor), 0)::text as "copayMinor"`);
const DECIDED_SQL = sql.raw(`status in ('complete', 'partial', 'denied')`);

/**
 * The rollup rows of a range with every dimension (docs/decisions/052): whole UTC months and days from
 * `adjudication_rollup`, the hours at the range's edges from `adjudication_hourly` (an hour counts
 * when it starts in the range). A subquery with insurer_id, kind, category, status, reason and the
 * money columns.
 *
 * One select per piece, joined by `union all`, rather than one select whose pieces are OR-ed: each
 * piece is then a single range on the primary key's leading columns (grain, period), which the
 * planner reads by index. OR-ed, it misjudged a two-year range and scanned the whole rollup in
 * parallel (1,000,000 claims: ~45 ms a query against ~11 ms; bench-dashboard-1m-2026-11-25.txt).
 *
 * `category: false` for views that never show the benefit category: the days and months then come
 * from the 'day-no-category' and 'month-no-category' rows (category '', a ninth of the rows;
 * decision 107); the edge hours keep theirs.
 */
export function rollupRows(range: DashboardRange, { category = true }: { category?: boolean } = {}): SQL {
  const between = (column: string, p: { from: Date; to: Date }) =>
    sql`${sql.raw(column)} >= ${p.from.toISOString()}::timestamptz and ${sql.raw(column)} < ${p.to.toISOString()}::timestamptz`;
  const insurer = range.insurerId ? sql`and insurer_id = ${range.insurerId}` : sql``;
  const columns = sql.raw("insurer_id, kind, category, status, reason, count, submitted_minor, eligible_minor, benefit_minor, copay_minor");
  const parts = decisionGrains(range.start, range.end).map((p) =>
    p.grain === "hour"
      ? sql`select ${columns} from adjudication_hourly where ${SERIAL} and ${between("hour", p)} ${insurer}`
      : sql`select ${columns} from adjudication_rollup where ${SERIAL} and grain = ${category ? p.grain : `${p.grain}-no-category`} and ${between("period", p)} ${insurer}`,
  );
  if (!parts.length) parts.push(sql`select ${columns} from adjudication_rollup where false`);
  return sql`(${sql.join(parts, sql` union all `)}) r`;
}

/**
 * The managers' views read a few hundred to a few thousand rollup rows (a few ms of work), yet the
 * planner would spread their `union all` over parallel workers, whose launch on a busy 2-core
 * machine cost 10–30 ms a query at 1,000,000 claims (docs/decisions/082, 100). Every read of a
 * view calls `dashboard_serial()` (PARALLEL UNSAFE, inlined to `true`; migration 0029, decision
 * 107): PostgreSQL then plans it for one process, and the view is one plain statement.
 */
export const SERIAL = sql.raw("dashboard_serial()");

/** Adjudicated claims (complete, partial, denied): money per insurer, largest submitted first. */
export async function totalsByInsurer(db: Db, range: DashboardRange): Promise<TotalsRow[]> {
  const rows = await queryRows<RawMoney & { key: string }>(db, sql`
    select insurer_id as key, ${MONEY_SUMS} from ${rollupRows(range, { category: false })}
    where kind = 'claim' and ${DECIDED_SQL}
    group by insurer_id order by sum(submitted_minor) desc, insurer_id`);
  return rows.map((r) => ({ key: r.key, ...toTotals(r) }));
}

/** Adjudicated claims per benefit category (of the claim's first item). */
export async function totalsByCategory(db: Db, range: DashboardRange): Promise<TotalsRow[]> {
  const rows = await queryRows<RawMoney & { key: string }>(db, sql`
    select category as key, ${MONEY_SUMS} from ${rollupRows(range)}
    where kind = 'claim' and ${DECIDED_SQL}
    group by category order by sum(submitted_minor) desc, category`);
  return rows.map((r) => ({ key: r.key, ...toTotals(r) }));
}

/** Prior authorizations decided, per insurer: approved (complete), partial, denied. */
export async function authorizationRates(db: Db, range: DashboardRange): Promise<RateRow[]> {
  const rows = await queryRows<{ key: string; approved: string; partial: string; denied: string }>(db, sql`
    select insurer_id as key,
      coalesce(sum(count) filter (where status = 'complete'), 0)::text as approved,
      coalesce(sum(count) filter (where status = 'partial'), 0)::text as partial,
      coalesce(sum(count) filter (where status = 'denied'), 0)::text as denied
    from ${rollupRows(range, { category: false })}
    where kind = 'preauthorization' and ${DECIDED_SQL}
    group by insurer_id order by insurer_id`);
  return rows.map((r) => {
    const approved = Number(r.approved);
    const partial = Number(r.partial);
    const denied = Number(r.denied);
    return { key: r.key, approved, partial, denied, decided: approved + partial + denied };
  });
}

/** Why submissions were turned down: platform errors (rejected, failed) and dispositions (denied, partial), most frequent first. */
export async function rejectionReasons(db: Db, range: DashboardRange, limit = 10): Promise<ReasonRow[]> {
  const rows = await queryRows<{ kind: string; status: string; reason: string; count: string }>(db, sql`
    select kind, status, reason, sum(count)::text as count from ${rollupRows(range, { category: false })}
    where status in ('rejected', 'failed', 'denied', 'partial') and reason <> ''
    group by kind, status, reason
    having sum(count) > 0
    order by sum(count) desc, kind, status, reason
    limit ${limit}`);
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
 * `decision_time_histogram` rollup (drizzle/0013_dashboard_decision_histogram.sql; for all
 * insurers its 'day-all' and 'month-all' rows, 0029). Every claim
 * with a decision time counts, including one cancelled after its decision. Null when none was
 * decided. Precision: each middle decision time is placed inside its 5 % wide bucket, so the
 * result is within 5 % (+ 1 s: bucket 0 is [0, 1) s, and rounding) of the exact percentile_cont
 * median; `count` is exact.
 */
export async function medianDecisionSeconds(db: Db, range: DashboardRange): Promise<{ median: number | null; count: number }> {
  const pieces = decisionGrains(range.start, range.end);
  if (pieces.length === 0) return { median: null, count: 0 };
  // All insurers: the days and months from their 'day-all' / 'month-all' rows (decision 107).
  const grainOf = (grain: string) => (range.insurerId || grain === "hour" ? grain : `${grain}-all`);
  const within = sql.join(
    pieces.map((p) => sql`(grain = ${grainOf(p.grain)} and period >= ${p.from.toISOString()}::timestamptz and period < ${p.to.toISOString()}::timestamptz)`),
    sql` or `,
  );
  const insurer = range.insurerId ? sql`and insurer_id = ${range.insurerId}` : sql``;
  const rows = await queryRows<{ bucket: number; count: string }>(db, sql`
    select bucket, sum(count)::text as count from decision_time_histogram
    where ${SERIAL} and (${within}) ${insurer}
    group by bucket`);
  return histogramMedian(rows.map((r) => ({ bucket: Number(r.bucket), count: Number(r.count) })));
}

/**
 * The rows a trend reads (docs/decisions/107): the clinic-day rows (`clinic`, kept for the zone in
 * `dashboard_clock`) when the range's time zone is the stored one, else the hour rows (`hour`),
 * which any whole-hour zone groups into its own days. One statement: the zone is compared in a
 * sub-select the planner runs once, before it reads the rollup by index.
 */
export function trendGrain(timeZone: string, clinic: string, hour: string): SQL {
  return sql`(select coalesce(max(case when time_zone = ${timeZone} then ${clinic} end), ${hour}) from dashboard_clock)`;
}

/**
 * Adjudicated claims per clinic day or week (weeks start on Monday), from the clinic-day rows of
 * `adjudication_rollup` (adjudicated claims only, status 'decided'; decision 107), or its hour
 * rows when the range is in another time zone: for one insurer its own rows ('clinic-day' /
 * 'hour'), for all insurers one row per day or hour ('clinic-day-all' / 'hour-all', decision 100).
 */
export async function trend(db: Db, range: DashboardRange): Promise<TrendRow[]> {
  const rowsOf = range.insurerId
    ? sql`grain = ${trendGrain(range.timeZone, "clinic-day", "hour")} and insurer_id = ${range.insurerId}`
    : sql`grain = ${trendGrain(range.timeZone, "clinic-day-all", "hour-all")}`;
  const rows = await queryRows<RawMoney & { period: string }>(db, sql`
    select to_char(date_trunc(${range.bucket}, period at time zone ${range.timeZone}), 'YYYY-MM-DD') as period, ${MONEY_SUMS}
    from adjudication_rollup
    where ${SERIAL} and ${rowsOf} and period >= ${range.start.toISOString()}::timestamptz and period < ${range.end.toISOString()}::timestamptz
      and kind = 'claim' and status = 'decided'
    group by 1 order by 1`);
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
  const rows = await managerLiveFeed(db, limit);
  return rows.map(({ payload, ...r }) => ({ ...r, at: r.at.toISOString(), note: typeof payload?.note === "string" ? payload.note : null }));
}
