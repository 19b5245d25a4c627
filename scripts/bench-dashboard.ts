/**
 * Times the managers' dashboard queries against a database, e.g. one filled with
 * `npm run seed:volume -- --claims 1000000`:
 *
 *   npm run bench:dashboard -- [--database-url postgres://…] [--days 30,365,730] [--runs 5] [--time-zone Asia/Riyadh] [--no-vacuum]
 *
 * For each range (--days: one or more lengths in days, ending today; default 30,365,730) runs
 * each query once to warm up, then --runs times, and prints the median per query and the total of
 * the medians (the page runs them in parallel, so the page waits less than the total). Budget:
 * 100 ms in all at 1,000,000 claims, for any range up to 24 months (docs/decisions/100, 107). For comparison it also times
 * the exact median over every decided claim (the query before the decision-time histogram,
 * decision 052), outside the total. Then it times the denial section's views (docs/decisions/077:
 * by family, reason, insurer, service, practitioner, the top fixable reasons, the scrubber's share
 * and the trend) with a total of their own, under the same budget. Like the portal's start, it first
 * sets the time zone the trends' clinic-day rows follow to --time-zone (decision 107; rebuilt when
 * it changed).
 */
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { reasonCodesCaught } from "@/lib/scrubber";
import {
  authorizationRates,
  denialBreakdown,
  denialTrend,
  scrubberCatchShare,
  topFixableReasons,
  liveBoardSince,
  medianDecisionSeconds,
  setDashboardClock,
  parseRange,
  rejectionReasons,
  statusCounts,
  totalsByCategory,
  totalsByInsurer,
  trend,
} from "@/lib/dashboard";
import { env } from "@/lib/env";
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db";
import { addDays, startOfZonedDay } from "@/lib/time";

/** The dashboard's queries, and the denial views, each total at most this at 1,000,000 claims (decisions 100, 107). */
const BUDGET_MS = 100;

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const hit = process.argv[i]!;
  return hit.includes("=") ? hit.slice(hit.indexOf("=") + 1) : process.argv[i + 1];
}

async function main() {
  const url = arg("database-url") ?? env().DATABASE_URL;
  if (!url) {
    console.error("Usage: npm run bench:dashboard -- --database-url postgres://… (or DATABASE_URL)");
    process.exit(2);
  }
  const lengths = (arg("days") ?? "30,365,730").split(",").map((d) => Math.max(1, Math.floor(Number(d))));
  if (lengths.some((d) => !Number.isFinite(d))) {
    console.error("--days takes lengths in days, e.g. --days 30,365,730");
    process.exit(2);
  }
  const runs = Math.max(1, Number(arg("runs") ?? 5));
  const timeZone = arg("time-zone") ?? env().CLINIC_TIME_ZONE;
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  try {
    await runMigrations(database);
    if (await setDashboardClock(database.db, timeZone)) console.log(`rebuilt the trends' clinic days for ${timeZone}`);
    if (!process.argv.includes("--no-vacuum")) {
      // What autovacuum does shortly after a bulk load (seed:volume): fresh statistics and a visibility map.
      await database.query("vacuum analyze adjudication_hourly");
      await database.query("vacuum analyze adjudication_rollup");
      await database.query("vacuum analyze decision_time_histogram");
      await database.query("vacuum analyze submissions");
      await database.query("vacuum analyze denial_lines");
      await database.query("vacuum analyze denial_rollup");
    }
    const [counted] = await database.query<{ n: string; claims: string; first: string | null }>(
      "select count(*)::text as n, count(*) filter (where kind = 'claim')::text as claims, min(created_at)::text as first from submissions",
    );
    const [lines] = await database.query<{ n: string }>("select count(*)::text as n from denial_lines");
    console.log(`${Number(lines?.n ?? 0).toLocaleString("en")} denied or reduced claim lines`);
    const now = new Date();
    const to = new Intl.DateTimeFormat("en-CA", { timeZone }).format(now);
    const weekAgo = liveBoardSince(now);
    const db = database.db;
    console.log(
      `${Number(counted?.n ?? 0).toLocaleString("en")} submissions (${Number(counted?.claims ?? 0).toLocaleString("en")} claims) since ${counted?.first ?? "-"}; median of ${runs} runs after a warm-up`,
    );
    const time = async (run: () => Promise<unknown>) => {
      await run();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return times[Math.floor(times.length / 2)]!;
    };
    for (const days of lengths) {
      // Built directly: parseRange caps a range at 366 days (the dashboard's form), the bench goes further.
      const from = addDays(to, -(days - 1));
      const range = { ...parseRange({ from: to, to }, timeZone, now), from, start: startOfZonedDay(from, timeZone) as Date, end: startOfZonedDay(addDays(to, 1), timeZone) as Date };
      const queries: [string, () => Promise<unknown>][] = [
        ["totals by insurer", () => totalsByInsurer(db, range)],
        ["totals by category", () => totalsByCategory(db, range)],
        ["authorization rates", () => authorizationRates(db, range)],
        ["rejection reasons", () => rejectionReasons(db, range)],
        ["median sent→adjudicated", () => medianDecisionSeconds(db, range)],
        ["trend per day", () => trend(db, range)],
        ["trend per week", () => trend(db, { ...range, bucket: "week" })],
        ["live board counts (7 days)", () => statusCounts(db, weekAgo)],
      ];
      console.log(`\n${days} days: ${range.from} … ${range.to} (${timeZone})`);
      let total = 0;
      let slowest: [string, number] = ["", 0];
      let medianMs = 0;
      for (const [name, run] of queries) {
        const median = await time(run);
        total += median;
        if (median > slowest[1]) slowest = [name, median];
        if (name.startsWith("median")) medianMs = median;
        console.log(`${name.padEnd(30)} ${median.toFixed(1).padStart(8)} ms`);
      }
      console.log(`${"total".padEnd(30)} ${total.toFixed(1).padStart(8)} ms  (budget ${BUDGET_MS} ms: ${total <= BUDGET_MS ? "OK" : "OVER"}; slowest: ${slowest[0]})`);
      const exact = sql`
        select percentile_cont(0.5) within group (order by extract(epoch from decided_at - sent_at))::text as median, count(*)::text as count
        from submissions
        where sent_at is not null and decided_at is not null and kind = 'claim'
          and created_at >= ${range.start.toISOString()}::timestamptz and created_at < ${range.end.toISOString()}::timestamptz`;
      const exactMs = await time(() => queryRows(db, exact));
      const [exactRow] = await queryRows<{ median: string | null; count: string }>(db, exact);
      // The codes the base rule set catches (the denial section's "would the scrubber have caught them?").
      const caught = [...reasonCodesCaught().keys()];
      const denialQueries: [string, () => Promise<unknown>][] = [
        ["denials by family", () => denialBreakdown(db, range, "family")],
        ["denials by reason", () => denialBreakdown(db, range, "reason")],
        ["denials by insurer", () => denialBreakdown(db, range, "insurer")],
        ["denials by service", () => denialBreakdown(db, range, "service")],
        ["denials by practitioner", () => denialBreakdown(db, range, "practitioner")],
        ["top fixable reasons", () => topFixableReasons(db, range)],
        ["scrubber's share", () => scrubberCatchShare(db, range, caught)],
        ["denial trend per day", () => denialTrend(db, range)],
        ["denial trend per week", () => denialTrend(db, { ...range, bucket: "week" })],
      ];
      let denialTotal = 0;
      let denialSlowest: [string, number] = ["", 0];
      for (const [name, run] of denialQueries) {
        const median = await time(run);
        denialTotal += median;
        if (median > denialSlowest[1]) denialSlowest = [name, median];
        console.log(`${name.padEnd(30)} ${median.toFixed(1).padStart(8)} ms`);
      }
      console.log(`${"denial views total".padEnd(30)} ${denialTotal.toFixed(1).padStart(8)} ms  (budget ${BUDGET_MS} ms: ${denialTotal <= BUDGET_MS ? "OK" : "OVER"}; slowest: ${denialSlowest[0]})`);
      const histogram = await medianDecisionSeconds(db, range);
      const exactMedian = exactRow?.median == null ? null : Number(exactRow.median);
      const error = exactMedian && histogram.median != null ? `${((100 * (histogram.median - exactMedian)) / exactMedian).toFixed(2)} %` : "-";
      console.log(
        `exact median (before decision 052) ${exactMs.toFixed(1).padStart(7)} ms  → total with it ${(total - medianMs + exactMs).toFixed(1)} ms; ` +
          `exact ${exactMedian == null ? "-" : Math.round(exactMedian)} s vs histogram ${histogram.median ?? "-"} s (${error}), ${Number(exactRow?.count ?? 0).toLocaleString("en")} claims`,
      );
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
