/**
 * Times the managers' dashboard queries (issue #8) against a database, e.g. one filled with
 * `npm run seed:volume -- --claims 1000000`:
 *
 *   npm run bench:dashboard -- [--database-url postgres://…] [--days 30] [--runs 5] [--time-zone Asia/Riyadh] [--no-vacuum]
 *
 * Runs each query once to warm up, then --runs times, and prints the median per query and the
 * total of the medians (the page runs them in parallel, so the page waits less than the total).
 * Budget: 300 ms in all at 1,000,000 claims.
 */
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import {
  authorizationRates,
  liveBoardSince,
  medianDecisionSeconds,
  parseRange,
  rejectionReasons,
  statusCounts,
  totalsByCategory,
  totalsByInsurer,
  trend,
} from "@/lib/dashboard";
import { env } from "@/lib/env";

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
  const days = Number(arg("days") ?? 30);
  const runs = Math.max(1, Number(arg("runs") ?? 5));
  const timeZone = arg("time-zone") ?? env().CLINIC_TIME_ZONE;
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  try {
    await runMigrations(database);
    if (!process.argv.includes("--no-vacuum")) {
      // What autovacuum does shortly after a bulk load (seed:volume): fresh statistics and a visibility map.
      await database.query("vacuum analyze adjudication_hourly");
      await database.query("vacuum analyze submissions");
    }
    const [counted] = await database.query<{ n: string }>("select count(*)::text as n from submissions");
    const n = counted?.n ?? "0";
    const now = new Date();
    const to = new Intl.DateTimeFormat("en-CA", { timeZone }).format(now);
    const from = new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(now.getTime() - (days - 1) * 86_400_000));
    const range = parseRange({ from, to }, timeZone, now);
    const weekAgo = liveBoardSince(now);
    const db = database.db;
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
    console.log(`${Number(n).toLocaleString("en")} submissions; range ${range.from} … ${range.to} (${timeZone}); median of ${runs} runs after a warm-up`);
    let total = 0;
    for (const [name, run] of queries) {
      await run();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)]!;
      total += median;
      console.log(`${name.padEnd(30)} ${median.toFixed(1).padStart(8)} ms`);
    }
    console.log(`${"total".padEnd(30)} ${total.toFixed(1).padStart(8)} ms  (budget 300 ms: ${total <= 300 ? "OK" : "OVER"})`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
