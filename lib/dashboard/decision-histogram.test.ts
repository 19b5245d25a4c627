import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";
import { submissions } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { dashboardClock, decisionGrains, denialRows, rollupRows, histogramMedian, medianDecisionSeconds, parseRange, setDashboardClock, totalsByInsurer, trend, type DashboardRange } from "./index";
import { deleteSubmissions, insertSubmissions, patchSubmission } from "@/lib/submissions/testing";

/*
 * Decision 052: the median decision time read from `decision_time_histogram` (kept by triggers) is
 * within 5 % (+ 1 s) of the exact median over every decided claim, over any range, and the
 * triggers keep the histogram exact as claims change or go.
 */

const TZ = "Asia/Riyadh";
type Row = typeof submissions.$inferInsert;

/** A range of whole clinic days (Asia/Riyadh), with its start and end written out so a test reads them at a glance. */
function days(from: string, to: string, insurerId?: string): DashboardRange {
  const r = parseRange({ from, to }, TZ);
  const start = new Date(`${from}T00:00:00+03:00`);
  const end = new Date(new Date(`${to}T00:00:00+03:00`).getTime() + 86_400_000);
  return { ...r, from, to, insurerId, start, end };
}

/** Deterministic pseudo-random numbers in [0, 1). */
function lcg(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const INSURERS = ["payer-a", "payer-b", "payer-c"];
const FIRST = new Date("2025-01-01T05:00:00Z").getTime();

function claims(n: number): Row[] {
  const rnd = lcg(42);
  return Array.from({ length: n }, (_, i) => {
    const created = new Date(FIRST + Math.floor(i * ((700 * 86_400_000) / n)) + Math.floor(rnd() * 10) * 3_600_000);
    const sent = new Date(created.getTime() + 10_000);
    // Log-uniform from 2 s to 10 days, with a few under a second, and milliseconds.
    const seconds = i % 97 === 0 ? rnd() : Math.exp(Math.log(2) + rnd() * (Math.log(864_000) - Math.log(2)));
    return {
      kind: "claim" as const,
      status: i % 11 === 0 ? ("denied" as const) : ("complete" as const),
      patientNationalId: "1000000001",
      insurerId: INSURERS[i % 3]!,
      claim: { resourceType: "Claim" },
      totalMinor: 10_000,
      currency: "SAR",
      createdAt: created,
      sentAt: sent,
      decidedAt: new Date(sent.getTime() + Math.round(seconds * 1000)),
    };
  });
}

/** The exact median, as the dashboard computed it before the histogram. */
async function exact(database: { query<T>(text: string, params?: unknown[]): Promise<T[]> }, range: DashboardRange) {
  const insurer = range.insurerId ? `and insurer_id = '${range.insurerId}'` : "";
  const [row] = await database.query<{ median: string | null; count: string }>(
    `select percentile_cont(0.5) within group (order by extract(epoch from decided_at - sent_at))::text as median, count(*)::text as count
     from submissions where sent_at is not null and decided_at is not null and kind = 'claim'
       and created_at >= '${range.start.toISOString()}' and created_at < '${range.end.toISOString()}' ${insurer}`,
  );
  return { median: row?.median == null ? null : Number(row.median), count: Number(row?.count ?? 0) };
}

/** The histogram recomputed from the claims, to compare with what the triggers kept. */
const RECOMPUTE = `
  select c.grain, c.period, c.insurer_id, c.bucket::int as bucket, sum(c.sign)::int as count
  from submissions s, dashboard_decision_contribution(s, 1) c group by 1, 2, 3, 4 order by 1, 2, 3, 4`;
/**
 * The coarser adjudication rollup recomputed from the hourly one, to compare with what its triggers
 * kept; the clinic-day rows (decision 107) group the hours by the day of the zone in `dashboard_clock`,
 * the no-category rows (decision 107) are the day and month rows without the benefit category.
 */
const PERIODS_RECOMPUTE = `
  select g.grain,
    case when g.unit = 'clinic-day' then date_trunc('day', h.hour, (select time_zone from dashboard_clock)) else date_trunc(g.unit, h.hour, 'UTC') end as period,
    case when g.grain in ('hour-all', 'clinic-day-all') then '' else h.insurer_id end as insurer_id, h.kind,
    case when g.unit in ('hour', 'clinic-day') or g.grain like '%-no-category' then '' else h.category end as category,
    case when g.unit in ('hour', 'clinic-day') then 'decided' else h.status end as status,
    case when g.unit in ('hour', 'clinic-day') then '' else h.reason end as reason,
    sum(h.count)::int as count, sum(h.submitted_minor)::text as submitted, sum(h.copay_minor)::text as copay
  from adjudication_hourly h,
    (values ('hour', 'hour'), ('hour-all', 'hour'), ('day', 'day'), ('month', 'month'), ('clinic-day', 'clinic-day'), ('clinic-day-all', 'clinic-day'),
      ('day-no-category', 'day'), ('month-no-category', 'month')) g (grain, unit)
  where g.unit not in ('hour', 'clinic-day') or (h.kind = 'claim' and h.status in ('complete', 'partial', 'denied'))
  group by 1, 2, 3, 4, 5, 6, 7 having sum(h.count) <> 0 or sum(h.submitted_minor) <> 0 order by 1, 2, 3, 4, 5, 6, 7`;
const PERIODS_KEPT = `
  select grain, period, insurer_id, kind, category, status, reason, count::int as count, submitted_minor::text as submitted, copay_minor::text as copay
  from adjudication_rollup where count <> 0 or submitted_minor <> 0 order by 1, 2, 3, 4, 5, 6, 7`;
const KEPT = `
  select grain, period, insurer_id, bucket::int as bucket, count::int as count
  from decision_time_histogram where count <> 0 order by 1, 2, 3, 4`;
/** The all-insurer day and month rows (decision 107), recomputed from the per-insurer ones without the trigger function. */
const ALL_RECOMPUTE = `
  select grain || '-all' as grain, period, '' as insurer_id, bucket::int as bucket, sum(count)::int as count
  from decision_time_histogram where grain in ('day', 'month') group by 1, 2, 3, 4 having sum(count) <> 0 order by 1, 2, 3, 4`;
const ALL_KEPT = `
  select grain, period, insurer_id, bucket::int as bucket, count::int as count
  from decision_time_histogram where grain in ('day-all', 'month-all') and count <> 0 order by 1, 2, 3, 4`;

describe("decision-time histogram (pure)", () => {
  it("splits a range into hours at its edges, whole UTC days and whole UTC months", () => {
    const r = days("2025-01-15", "2025-04-10");
    expect(decisionGrains(r.start, r.end).map((p) => [p.grain, p.from.toISOString(), p.to.toISOString()])).toEqual([
      ["hour", "2025-01-14T21:00:00.000Z", "2025-01-15T00:00:00.000Z"],
      ["hour", "2025-04-10T00:00:00.000Z", "2025-04-10T21:00:00.000Z"],
      ["day", "2025-01-15T00:00:00.000Z", "2025-02-01T00:00:00.000Z"],
      ["day", "2025-04-01T00:00:00.000Z", "2025-04-10T00:00:00.000Z"],
      ["month", "2025-02-01T00:00:00.000Z", "2025-04-01T00:00:00.000Z"],
    ]);
    const one = days("2025-01-15", "2025-01-15");
    expect(decisionGrains(one.start, one.end).map((p) => p.grain)).toEqual(["hour"]);
  });

  it("reads the median between the two middle ranks, inside their buckets", () => {
    expect(histogramMedian([])).toEqual({ median: null, count: 0 });
    // 1.05^100 ≈ 131.5 s: bucket 101 is [131.5, 138.1) s.
    const one = histogramMedian([{ bucket: 101, count: 1 }]);
    expect(one.count).toBe(1);
    expect(one.median).toBeGreaterThanOrEqual(131);
    expect(one.median).toBeLessThanOrEqual(139);
  });
});

describe.each(testDatabases())("decision-time histogram on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    await insertSubmissions(database.db, claims(1201));
    // Not counted: a prior authorization, a claim never sent, one not yet decided.
    const base = { patientNationalId: "1000000001", insurerId: "payer-a", claim: { resourceType: "Claim" }, totalMinor: 1, currency: "SAR", createdAt: new Date("2025-06-01T08:00:00Z") };
    await insertSubmissions(database.db, [
      { ...base, kind: "preauthorization", status: "complete", sentAt: new Date("2025-06-01T08:00:00Z"), decidedAt: new Date("2025-06-01T09:00:00Z") },
      { ...base, kind: "claim", status: "draft" },
      { ...base, kind: "claim", status: "sent", sentAt: new Date("2025-06-01T08:00:00Z") },
    ]);
  }, 120_000);
  afterAll(async () => database?.dispose());

  it("is within 5 % (+ 1 s) of the exact median over short, long and odd ranges, per insurer too", async () => {
    const ranges = [
      days("2025-01-01", "2026-12-31"),
      days("2025-01-01", "2026-12-31", "payer-b"),
      days("2025-03-17", "2026-03-16"),
      days("2025-03-17", "2025-04-15", "payer-c"),
      days("2025-11-30", "2025-12-01"),
      days("2026-02-01", "2026-02-28", "payer-a"),
      days("2025-07-09", "2025-07-09"),
    ];
    for (const range of ranges) {
      const want = await exact(database, range);
      const got = await medianDecisionSeconds(database.db, range);
      expect(got.count, `${range.from}…${range.to} ${range.insurerId ?? ""}`).toBe(want.count);
      expect(want.count).toBeGreaterThan(0);
      expect(Math.abs(got.median! - want.median!), `${range.from}…${range.to} ${range.insurerId ?? ""}: ${got.median} vs ${want.median}`).toBeLessThanOrEqual(
        want.median! * 0.05 + 1,
      );
    }
    const all = await medianDecisionSeconds(database.db, days("2025-01-01", "2026-12-31"));
    const perInsurer = await Promise.all(INSURERS.map((i) => medianDecisionSeconds(database.db, days("2025-01-01", "2026-12-31", i))));
    expect(all.count).toBe(1201);
    expect(perInsurer.map((m) => m.count)).toEqual([401, 400, 400]);
    expect(await medianDecisionSeconds(database.db, days("2024-01-01", "2024-12-31"))).toEqual({ median: null, count: 0 });
    expect(await database.query(KEPT)).toEqual(await database.query(RECOMPUTE));
    expect(await database.query(ALL_KEPT)).toEqual(await database.query(ALL_RECOMPUTE));
    expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
  });

  it("plans every view for one process: a few thousand rollup rows never pay for parallel workers (decision 107)", async () => {
    const range = days("2025-01-15", "2026-04-10");
    const plan = async (query: SQL) =>
      database.db.transaction(async (tx) => {
        // Parallel plans made as cheap as they can be: the planner takes one whenever it may.
        for (const setting of ["parallel_setup_cost", "parallel_tuple_cost", "min_parallel_table_scan_size", "min_parallel_index_scan_size"]) {
          await tx.execute(sql.raw(`set local ${setting} = 0`));
        }
        await tx.execute(sql`set local max_parallel_workers_per_gather = 2`);
        const rows = await queryRows<{ "QUERY PLAN": string }>(tx as unknown as Db, sql`explain ${query}`);
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
    const view = sql`select insurer_id, sum(count) from ${rollupRows(range)} group by 1`;
    expect(await plan(view)).not.toMatch(/Gather|Parallel/);
    expect(await plan(sql`select key, sum(lines) from ${denialRows(range, "practitioner")} group by 1`)).not.toMatch(/Gather|Parallel/);
    // The same rows without the marker: a parallel plan (the test can fail).
    expect(await plan(sql`select insurer_id, sum(count) from (select insurer_id, count from adjudication_rollup where grain = 'day' union all select insurer_id, count from adjudication_hourly) r group by 1`)).toMatch(/Gather|Parallel/);
  });

  it("sums money over long ranges exactly as the hourly rollup does (months, days and edge hours)", async () => {
    for (const range of [days("2025-01-01", "2026-12-31"), days("2025-03-17", "2026-03-16", "payer-b"), days("2025-07-09", "2025-07-09")]) {
      const insurer = range.insurerId ? `and insurer_id = '${range.insurerId}'` : "";
      const want = await database.query<{ key: string; count: string; submitted: string }>(
        `select insurer_id as key, sum(count)::text as count, sum(submitted_minor)::text as submitted from adjudication_hourly
         where hour >= '${range.start.toISOString()}' and hour < '${range.end.toISOString()}' and kind = 'claim' and status in ('complete', 'partial', 'denied') ${insurer}
         group by 1 order by sum(submitted_minor) desc, 1`,
      );
      expect(want.length).toBeGreaterThan(0);
      const got = await totalsByInsurer(database.db, range);
      expect(got.map((r) => ({ key: r.key, count: String(r.count), submitted: r.submittedMinor }))).toEqual(want);
      const perDay = await trend(database.db, range);
      expect(perDay.reduce((n, r) => n + r.count, 0)).toBe(want.reduce((n, r) => n + Number(r.count), 0));
    }
  });

  it("follows claims as they change or go: decided_at moved, status changed, decision cleared, kind changed, moved out, deleted", async () => {
    const db = database.db;
    const range = days("2024-03-01", "2024-03-31", "payer-z");
    const put = (created: string, seconds: number): Row => ({
      kind: "claim",
      status: "complete",
      patientNationalId: "1000000001",
      insurerId: "payer-z",
      claim: { resourceType: "Claim" },
      totalMinor: 1,
      currency: "SAR",
      createdAt: new Date(created),
      sentAt: new Date(created),
      decidedAt: new Date(new Date(created).getTime() + seconds * 1000),
    });
    const rows = await insertSubmissions(db, [put("2024-03-05T08:00:00Z", 100), put("2024-03-06T08:00:00Z", 1000), put("2024-03-20T08:00:00Z", 10_000)]);
    const [a, b, c] = rows.map((r) => r.id) as [string, string, string];
    const near = async (median: number | null, count: number) => {
      const got = await medianDecisionSeconds(db, range);
      expect(got.count).toBe(count);
      if (median === null) expect(got.median).toBeNull();
      else expect(Math.abs(got.median! - median)).toBeLessThanOrEqual(median * 0.05 + 1);
      expect(await database.query(KEPT)).toEqual(await database.query(RECOMPUTE));
      expect(await database.query(ALL_KEPT)).toEqual(await database.query(ALL_RECOMPUTE));
      expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
    };
    await near(1000, 3);
    // The middle claim's decision moves to 50 000 s: the median is now the 10 000 s one.
    await patchSubmission(db, b, { decidedAt: new Date(new Date("2024-03-06T08:00:00Z").getTime() + 50_000_000) });
    await near(10_000, 3);
    // Cancelled after its decision: still counts (status alone moves nothing).
    await patchSubmission(db, c, { status: "cancelled" });
    await near(10_000, 3);
    // Back to pended without a decision: leaves the histogram; two left, 100 and 50 000 s.
    await patchSubmission(db, c, { status: "pended", decidedAt: null });
    await near((100 + 50_000) / 2, 2);
    // Turned into a prior authorization: no longer a claim.
    await patchSubmission(db, a, { kind: "preauthorization" });
    await near(50_000, 1);
    // Moved out of the range (created a month later).
    await patchSubmission(db, b, { createdAt: new Date("2024-04-06T08:00:00Z") });
    await near(null, 0);
    expect((await medianDecisionSeconds(db, days("2024-04-01", "2024-04-30", "payer-z"))).count).toBe(1);
    await deleteSubmissions(db, [a, b, c]);
    expect((await medianDecisionSeconds(db, days("2024-01-01", "2024-12-31", "payer-z"))).count).toBe(0);
    expect(await database.query(KEPT)).toEqual(await database.query(RECOMPUTE));
    expect(await database.query(ALL_KEPT)).toEqual(await database.query(ALL_RECOMPUTE));
  });

  it("keeps one trend row per clinic day in the stored zone, rebuilds them when the zone changes, reads the hours for another zone (decision 107)", async () => {
    const db = database.db;
    /** The trend straight from the hourly rollup, grouped in `zone`: what every path must give. */
    const fromHours = async (range: DashboardRange, zone: string) => {
      const insurer = range.insurerId ? `and insurer_id = '${range.insurerId}'` : "";
      return database.query<{ period: string; count: number; submitted: string }>(
        `select to_char(date_trunc('${range.bucket}', hour at time zone '${zone}'), 'YYYY-MM-DD') as period, sum(count)::int as count, sum(submitted_minor)::text as submitted
         from adjudication_hourly where kind = 'claim' and status in ('complete', 'partial', 'denied')
           and hour >= '${range.start.toISOString()}' and hour < '${range.end.toISOString()}' ${insurer}
         group by 1 having sum(count) <> 0 order by 1`,
      );
    };
    const read = async (range: DashboardRange) =>
      (await trend(db, range)).filter((r) => r.count !== 0).map((r) => ({ period: r.period, count: r.count, submitted: r.submittedMinor }));
    const riyadh = [days("2025-01-01", "2026-12-31"), days("2025-03-17", "2025-04-15", "payer-c"), days("2025-07-09", "2025-07-09")];
    const newYork = [parseRange({ from: "2025-01-01", to: "2025-12-31" }, "America/New_York"), parseRange({ from: "2025-03-01", to: "2025-03-31", insurer: "payer-b" }, "America/New_York")];
    const agree = async (ranges: DashboardRange[], zone: string) => {
      for (const range of ranges) {
        for (const r of [range, { ...range, bucket: "week" as const }]) {
          const want = await fromHours(r, zone);
          expect(want.length, `${r.from}…${r.to} ${r.insurerId ?? ""} ${r.bucket}`).toBeGreaterThan(0);
          expect(await read(r), `${r.from}…${r.to} ${r.insurerId ?? ""} ${r.bucket}`).toEqual(want);
        }
      }
    };
    /** Whether a trend in `range` reads the clinic-day rows: a marker added to them shows in it, then goes. */
    const readsClinicDays = async (range: DashboardRange) => {
      const before = (await trend(db, range)).reduce((n, r) => n + r.count, 0);
      await database.query(`update adjudication_rollup set count = count + 1000 where grain = 'clinic-day-all'`);
      const marked = (await trend(db, range)).reduce((n, r) => n + r.count, 0);
      await database.query(`update adjudication_rollup set count = count - 1000 where grain = 'clinic-day-all'`);
      return marked !== before;
    };
    const inRange = riyadh[0]!;
    expect(await dashboardClock(db)).toBe("Asia/Riyadh");
    expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
    await agree(riyadh, "Asia/Riyadh");
    expect(await readsClinicDays(inRange)).toBe(true);
    expect(await setDashboardClock(db, "Asia/Riyadh")).toBe(false);
    // An unknown zone changes nothing.
    await expect(setDashboardClock(db, "Mars/Base")).rejects.toThrow();
    expect(await dashboardClock(db)).toBe("Asia/Riyadh");
    // A clinic that moves to New York (23- and 25-hour days): its days are rebuilt from the hours;
    // a range in Riyadh's days now reads the hours, with the same answer.
    expect(await setDashboardClock(db, "America/New_York")).toBe(true);
    expect(await dashboardClock(db)).toBe("America/New_York");
    expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
    await agree(newYork, "America/New_York");
    await agree(riyadh, "Asia/Riyadh");
    expect(await readsClinicDays(newYork[0]!)).toBe(true);
    expect(await readsClinicDays(inRange)).toBe(false);
    // Claims keep the New York days as they come, change and go.
    const [added] = await insertSubmissions(db, {
      ...claims(1)[0]!,
      insurerId: "payer-b",
      createdAt: new Date("2025-03-09T06:30:00Z"),
      sentAt: new Date("2025-03-09T06:31:00Z"),
      decidedAt: new Date("2025-03-09T07:00:00Z"),
    });
    expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
    await patchSubmission(db, added!.id, { createdAt: new Date("2025-03-10T03:30:00Z") });
    await agree(newYork, "America/New_York");
    await deleteSubmissions(db, [added!.id]);
    expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
    // Back to Riyadh: rebuilt again.
    expect(await setDashboardClock(db, "Asia/Riyadh")).toBe(true);
    expect(await database.query(PERIODS_KEPT)).toEqual(await database.query(PERIODS_RECOMPUTE));
    await agree(riyadh, "Asia/Riyadh");
    expect(await readsClinicDays(inRange)).toBe(true);
  });
});
