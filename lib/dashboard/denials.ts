import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";
import { FIXABLE_FAMILIES } from "@/lib/denials";
import { SERIAL, decisionGrains, trendGrain } from "./queries";
import type { DashboardRange } from "./range";

/*
 * Denial analytics (docs/decisions/077): rejected and reduced money per family, reason, insurer,
 * service and practitioner, a trend and the top fixable reasons, from `denial_rollup` (whole UTC
 * months and days, kept by triggers on `denial_lines`, drizzle/0015_denial_lines.sql) and, for
 * the hours at a range's edges, from `denial_lines` itself (a few thousand rows at most). Money is
 * summed as bigint minor units and returned as decimal strings, never floats.
 */

export const DENIAL_DIMENSIONS = ["family", "reason", "insurer", "service", "practitioner"] as const;
export type DenialDimension = (typeof DENIAL_DIMENSIONS)[number];

export interface DenialRow {
  /** The dimension's value ('' = none: no reason, no insurer, no practitioner …). */
  key: string;
  /** The family (reason rows: the reason's; other rows: ''). */
  family: string;
  lines: number;
  rejectedMinor: string;
  reducedMinor: string;
  /** rejected + reduced: the money at stake. */
  atStakeMinor: string;
}

export interface DenialTrendRow {
  period: string;
  lines: number;
  rejectedMinor: string;
  reducedMinor: string;
}

const LINE_KEY: Record<DenialDimension, string> = {
  family: "family",
  reason: "reason_code",
  insurer: "insurer_id",
  service: "service_code",
  practitioner: "practitioner",
};

const between = (column: string, p: { from: Date; to: Date }) =>
  sql`${sql.raw(column)} >= ${p.from.toISOString()}::timestamptz and ${sql.raw(column)} < ${p.to.toISOString()}::timestamptz`;

/**
 * The rows of one dimension over a range: (key, family, outcome, lines, at_stake_minor). Whole UTC
 * months and days from the rollup, the edge hours from the lines; one select per piece joined by
 * `union all` so each reads one index range (as `rollupRows`, decision 052's amendment).
 */
export function denialRows(range: DashboardRange, dimension: DenialDimension): SQL {
  const insurer = range.insurerId ? sql`and insurer_id = ${range.insurerId}` : sql``;
  const parts = decisionGrains(range.start, range.end).map((p) =>
    p.grain === "hour"
      ? sql`select ${sql.raw(LINE_KEY[dimension])} as key, family, outcome, 1::bigint as lines, at_stake_minor from denial_lines where ${SERIAL} and ${between("created_at", p)} ${insurer}`
      : sql`select key, family, outcome, lines, at_stake_minor from denial_rollup where ${SERIAL} and grain = ${p.grain} and dimension = ${dimension} and ${between("period", p)} ${insurer}`,
  );
  if (!parts.length) parts.push(sql`select key, family, outcome, lines, at_stake_minor from denial_rollup where false`);
  return sql`(${sql.join(parts, sql` union all `)}) d`;
}

const SUMS = sql.raw(`coalesce(sum(lines), 0)::text as lines,
  coalesce(sum(at_stake_minor) filter (where outcome = 'rejected'), 0)::text as rejected,
  coalesce(sum(at_stake_minor) filter (where outcome = 'reduced'), 0)::text as reduced,
  coalesce(sum(at_stake_minor), 0)::text as stake`);

type Raw = { key: string; family: string; lines: string; rejected: string; reduced: string; stake: string };
const toRow = (r: Raw): DenialRow => ({ key: r.key, family: r.family, lines: Number(r.lines), rejectedMinor: r.rejected, reducedMinor: r.reduced, atStakeMinor: r.stake });

/** Money at stake per value of one dimension, largest first (reasons keep their family). */
export async function denialBreakdown(db: Db, range: DashboardRange, dimension: DenialDimension, limit = 20): Promise<DenialRow[]> {
  const family = dimension === "reason" || dimension === "family" ? sql.raw("family") : sql.raw("''");
  const rows = await queryRows<Raw>(db, sql`
    select key, ${family} as family, ${SUMS} from ${denialRows(range, dimension)}
    group by 1, 2
    having sum(lines) <> 0
    order by sum(at_stake_minor) desc, 1, 2
    limit ${limit}`);
  return rows.map(toRow);
}

/** The reasons the clinic can fix itself (FIXABLE_FAMILIES: AD, BE, SE), most money at stake first. */
export async function topFixableReasons(db: Db, range: DashboardRange, limit = 5): Promise<DenialRow[]> {
  const families = sql.join(FIXABLE_FAMILIES.map((f) => sql`${f}`), sql`, `);
  const rows = await queryRows<Raw>(db, sql`
    select key, family, ${SUMS} from ${denialRows(range, "reason")}
    where family in (${families}) and key <> ''
    group by 1, 2
    having sum(lines) <> 0
    order by sum(at_stake_minor) desc, 1
    limit ${limit}`);
  return rows.map(toRow);
}

export interface CatchShare {
  /** Lines whose reason a scrubber rule checks before sending, and the money at stake on them. */
  caught: { lines: number; atStakeMinor: string };
  /** Lines whose reason no rule checks (including lines without a reason). */
  missed: { lines: number; atStakeMinor: string };
}

/**
 * How much of the money rejected and cut the scrubber's rules would have caught before sending:
 * the reason rows split by whether their code is one a rule finds (`codes`, from the rule set in
 * force, lib/scrubber reasonCodesCaught).
 */
export async function scrubberCatchShare(db: Db, range: DashboardRange, codes: readonly string[]): Promise<CatchShare> {
  const caught = codes.length ? sql`key in (${sql.join(codes.map((c) => sql`${c}`), sql`, `)})` : sql`false`;
  const rows = await queryRows<{ caught: boolean; lines: string; stake: string }>(db, sql`
    select ${caught} as caught, coalesce(sum(lines), 0)::text as lines, coalesce(sum(at_stake_minor), 0)::text as stake
    from ${denialRows(range, "reason")}
    group by 1`);
  const pick = (c: boolean) => {
    const row = rows.find((r) => r.caught === c);
    return { lines: Number(row?.lines ?? 0), atStakeMinor: row?.stake ?? "0" };
  };
  return { caught: pick(true), missed: pick(false) };
}

/**
 * Rejected and reduced money per clinic day or week (weeks start on Monday), from the clinic-day
 * rows (decision 107), or the hour rows when the range is in another time zone than the one the
 * clinic-day rows follow. Summed per period first, so the time-zone conversion runs once a period,
 * not once a row (split by outcome).
 */
export async function denialTrend(db: Db, range: DashboardRange): Promise<DenialTrendRow[]> {
  // One insurer: its own rows; all insurers: the rows summed over insurers ('trend-all', decision 082).
  const insurer = range.insurerId ? sql`dimension = 'trend' and insurer_id = ${range.insurerId}` : sql`dimension = 'trend-all'`;
  const rows = await queryRows<{ period: string; lines: string; rejected: string; reduced: string }>(db, sql`
    select to_char(date_trunc(${range.bucket}, period at time zone ${range.timeZone}), 'YYYY-MM-DD') as period,
      sum(lines)::text as lines, sum(rejected)::text as rejected, sum(reduced)::text as reduced
    from (
      select period, sum(lines) as lines,
        coalesce(sum(at_stake_minor) filter (where outcome = 'rejected'), 0) as rejected,
        coalesce(sum(at_stake_minor) filter (where outcome = 'reduced'), 0) as reduced
      from denial_rollup
      where ${SERIAL} and grain = ${trendGrain(range.timeZone, "clinic-day", "hour")} and ${insurer} and ${between("period", { from: range.start, to: range.end })}
      group by period
    ) h
    group by 1 having sum(lines) <> 0 order by 1`);
  return rows.map((r) => ({ period: r.period, lines: Number(r.lines), rejectedMinor: r.rejected, reducedMinor: r.reduced }));
}

/** Every denial view at once (the benchmark). */
export async function denialData(db: Db, range: DashboardRange) {
  const [byFamily, byReason, byInsurer, byService, byPractitioner, fixable, trendRows] = await Promise.all([
    denialBreakdown(db, range, "family"),
    denialBreakdown(db, range, "reason"),
    denialBreakdown(db, range, "insurer"),
    denialBreakdown(db, range, "service"),
    denialBreakdown(db, range, "practitioner"),
    topFixableReasons(db, range),
    denialTrend(db, range),
  ]);
  return { byFamily, byReason, byInsurer, byService, byPractitioner, fixable, trend: trendRows };
}
