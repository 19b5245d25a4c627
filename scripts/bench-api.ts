/**
 * Benchmark of the generic claims API's query layer (`listClaims`, the function GET /v1/claims
 * uses) and of full HTTP round trips through the route's handler (key check, rate limit, query,
 * JSON, audit) on a loopback server, against a database that already holds the volume.
 *
 *   npm run seed:volume -- --claims 1000000 --database-url postgres://…/cx_bench
 *   npm run bench:api -- [--database-url postgres://…/cx_bench] [--n 200] [--deep-pages 10000] [--explain]
 *
 * Cases: first pages, a walk that follows next_cursor 10 000 pages deep (every page timed), pages
 * from a cursor near the end of the list, each filter alone and combined, deep pages with
 * filters, and HTTP round trips. Prints p50/p95/max per case. Target: p95 ≤ 25 ms at any depth.
 * Timing never fails the script.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApiKey } from "@/lib/api-access/credentials";
import { decodeCursor, encodeCursor, handleListClaims, listClaims, type ClaimsQuery } from "@/lib/claims-api";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import type { SubmissionStatus } from "@/lib/db/schema";
import { env } from "@/lib/env";

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const hit = process.argv[i]!;
  if (hit.includes("=")) return hit.slice(hit.indexOf("=") + 1);
  const next = process.argv[i + 1];
  return next && !next.startsWith("--") ? next : "true";
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const results: { name: string; n: number; p50: number; p95: number; max: number }[] = [];

function report(name: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const row = { name, n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN };
  results.push(row);
  console.log(`${name.padEnd(58)} n=${String(row.n).padStart(5)}  p50 ${row.p50.toFixed(2).padStart(7)} ms  p95 ${row.p95.toFixed(2).padStart(7)} ms  max ${row.max.toFixed(2).padStart(7)} ms`);
}

async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const value = await work();
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
}

async function repeat(name: string, n: number, work: () => Promise<unknown>) {
  for (let i = 0; i < 50; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push((await time(work))[0]);
  report(name, samples);
}

/** A cursor positioned after the claim at `offset` in API order (optionally among `where`). */
async function cursorAt(database: Database, offset: number, where = "true"): Promise<string | undefined> {
  const [row] = await database.query<{ created_key: string; id: string }>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key, id
       from submissions where kind = 'claim' and ${where} order by created_at desc, id desc offset ${offset} limit 1`,
  );
  return row ? encodeCursor({ createdAt: row.created_key, id: row.id }) : undefined;
}

async function main(): Promise<number> {
  const url = arg("database-url") ?? env().DATABASE_URL;
  if (!url) {
    console.error("Give --database-url postgres://… (a database seeded with npm run seed:volume).");
    return 2;
  }
  const n = Number(arg("n") ?? 200);
  const deepPages = Number(arg("deep-pages") ?? 10_000);
  const database = await openDatabase({ kind: "postgres", url, poolSize: 4 });
  const db = database.db;
  try {
    await runMigrations(database);
    const [{ count }] = (await database.query<{ count: string }>(`select count(*) from submissions where kind = 'claim'`)) as [{ count: string }];
    const total = Number(count);
    console.log(`claims in the database: ${total.toLocaleString("en")}${total < 1_000_000 ? "  (target volume is 1,000,000: npm run seed:volume)" : ""}`);
    const [{ patient }] = (await database.query<{ patient: string }>(
      `select patient_id as patient from submissions where kind = 'claim' group by 1 order by count(*) desc limit 1`,
    )) as [{ patient: string }];

    const q = (extra: Partial<ClaimsQuery> = {}): ClaimsQuery => ({ limit: 25, ...extra });
    const run = (query: ClaimsQuery) => () => listClaims(db, query);

    console.log("\nquery layer (listClaims)");
    await repeat("first page, limit 25", n, run(q()));
    await repeat("first page, limit 100", n, run(q({ limit: 100 })));

    // Follow next_cursor page after page, timing each one.
    const walk: number[] = [];
    let cursor: ClaimsQuery["cursor"];
    let nextCursor: string | null = null;
    for (let page = 0; page < deepPages; page++) {
      const [ms, result] = await time(() => listClaims(db, q({ cursor })));
      walk.push(ms);
      nextCursor = result.nextCursor;
      if (!nextCursor) break;
      cursor = decodeCursor(nextCursor);
    }
    report(`walk: ${walk.length.toLocaleString("en")} pages of 25 following next_cursor`, walk);
    const deepest = cursor;
    if (deepest) await repeat(`page ${walk.length.toLocaleString("en")} (row ${(walk.length * 25).toLocaleString("en")}) again`, n, run(q({ cursor: deepest })));

    const nearEnd = await cursorAt(database, Math.max(0, total - 60));
    if (nearEnd) await repeat("cursor near the end (last 60 rows), limit 25", n, run(q({ cursor: decodeCursor(nearEnd) })));
    const middle = await cursorAt(database, Math.floor(total / 2));
    if (middle) await repeat("cursor in the middle, limit 100", n, run(q({ limit: 100, cursor: decodeCursor(middle) })));

    console.log("\nfilters");
    const statuses = (s: string) => s.split(",") as SubmissionStatus[];
    await repeat("status=complete", n, run(q({ statuses: statuses("complete") })));
    await repeat("status=failed (rare)", n, run(q({ statuses: statuses("failed") })));
    await repeat("status=denied,failed,pended", n, run(q({ statuses: statuses("denied,failed,pended") })));
    await repeat("status=complete,partial, limit 100", n, run(q({ limit: 100, statuses: statuses("complete,partial") })));
    await repeat("patient=<busiest patient>", n, run(q({ patient })));
    await repeat("patient + status=complete", n, run(q({ patient, statuses: statuses("complete") })));
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    const sixMonths = new Date(Date.now() - 182 * 86_400_000);
    await repeat("created_gte 6 months ago, created_lt 5 months ago", n, run(q({ createdGte: sixMonths, createdLt: new Date(sixMonths.getTime() + 30 * 86_400_000) })));
    await repeat("created_gte last 30 days + status=denied", n, run(q({ createdGte: monthAgo, statuses: statuses("denied") })));
    await repeat("created_lt 11 months ago (old end of the list)", n, run(q({ createdLt: new Date(Date.now() - 335 * 86_400_000) })));

    const deepFailed = await cursorAt(database, 5_000, "status in ('failed','cancelled')");
    if (deepFailed) await repeat("status=failed,cancelled from row 5,000 of them", n, run(q({ statuses: statuses("failed,cancelled"), cursor: decodeCursor(deepFailed) })));
    const deepComplete = await cursorAt(database, 500_000, "status = 'complete'");
    if (deepComplete) await repeat("status=complete from row 500,000 of them", n, run(q({ statuses: statuses("complete"), cursor: decodeCursor(deepComplete) })));
    const nearEndStatus = await cursorAt(database, 0, `status in ('denied','partial') and created_at < (select min(created_at) + interval '1 day' from submissions)`);
    if (nearEndStatus) await repeat("status=denied,partial near the end", n, run(q({ statuses: statuses("denied,partial"), cursor: decodeCursor(nearEndStatus) })));

    // HTTP: a loopback server that hands each request to the route's handler (what app/v1/claims/route.ts does).
    console.log("\nHTTP round trips through the handler (X-API-Key, rate limit, audit, JSON)");
    const { key } = await createApiKey(db, { name: "bench:api", environment: "sandbox", scopes: ["claims:read"] });
    const server = http.createServer(async (req, res) => {
      const response = await handleListClaims(new Request(`http://127.0.0.1${req.url}`, { headers: req.headers as Record<string, string> }), {
        db,
        environment: "sandbox",
        ratePerMinute: 1_000_000_000,
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/claims`;
    const fetchPage = (qs: string) => async () => {
      const response = await fetch(`${base}${qs}`, { headers: { "x-api-key": key } });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      await response.json();
    };
    await repeat("HTTP first page, limit 25", n, fetchPage(""));
    await repeat("HTTP first page, limit 100", n, fetchPage("?limit=100"));
    if (deepest) await repeat(`HTTP page ${walk.length.toLocaleString("en")}`, n, fetchPage(`?cursor=${nextCursor ?? ""}`));
    if (nearEnd) await repeat("HTTP cursor near the end", n, fetchPage(`?cursor=${nearEnd}`));
    await repeat("HTTP status=denied,failed,pended&created_gte=…", n, fetchPage(`?status=denied,failed,pended&created_gte=${sixMonths.toISOString().slice(0, 10)}`));
    server.close();

    if (arg("explain")) {
      const [plan] = await database.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers, format text) select id from submissions where kind = 'claim' order by created_at desc, id desc limit 26`);
      console.log(plan);
    }
    const worst = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    console.log(`\nworst p95: ${worst.p95.toFixed(2)} ms (${worst.name}) — target ≤ 25 ms: ${worst.p95 <= 25 ? "met" : "NOT met"}`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:api failed: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
