/**
 * Benchmark of eligibility ahead of the visit (docs/decisions/044): a batch run of N visits (default 500)
 * through the portal's real platform client over mutual TLS against its own sandbox, at the
 * platform's default limits (eligibility 100 per 60 s window), while a front desk makes
 * interactive checks; and the same interactive checks without a run, for comparison.
 *
 *   npm run bench:visits -- [--n=500] [--window-ms=60000] [--protocol=rest|messaging] [--debug]
 *                           [--interactive=20] [--concurrency=8] [--database-url=postgres://…]
 *
 * --window-ms scales the platform's window (sandbox AND limiter) for a quick run; the closing
 * figures must come from the default 60 000. Prints the settings used, the run's duration, the
 * platform's 429 count (must be 0), and p50/p95 of the interactive checks (from asking to the
 * stored answer, including any wait for the quota) with and without the run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { runEligibilityCheck } from "@/lib/eligibility";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { listCoverages, findPatientByNationalId } from "@/lib/patients";
import { createLogger, createPlatformClient, portFor, DEFAULT_RATE_LIMIT_CONFIG, PLATFORM_RATE_LIMITS } from "@/lib/platform";
import { sentClaimReads } from "@/lib/submissions";
import { importVisitList, getRun, startVisitWorker } from "@/lib/visits";
import { startSandbox } from "@/sandbox";

function arg(name: string): string | undefined {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split("=")[1] ?? "true");
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => `${v.toFixed(1)} ms`;

/** --debug: event-loop delay and each interactive platform call's time, printed as they happen. */
const debug = arg("debug") !== undefined;

const PATIENTS = ["1000000001", "1000000002", "1048573628", "2087654311", "1122334459"];
const SERVICES = [["99213"], ["99213", "71046"], ["92004"], ["70553"], ["85025", "36415"], []];

async function main() {
  if (debug) {
    const { monitorEventLoopDelay } = await import("node:perf_hooks");
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    (globalThis as { __eld?: unknown }).__eld = h;
  }
  const n = Number(arg("n") ?? 500);
  const windowMs = Number(arg("window-ms") ?? 60_000);
  const protocol = (arg("protocol") ?? "rest") as "rest" | "messaging";
  const interactiveCount = Number(arg("interactive") ?? 20);
  const concurrency = Number(arg("concurrency") ?? 8);
  const databaseUrl = arg("database-url");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-visits-"));
  // The sandbox at its default limits (100 eligibility checks per window), window scaled only when asked.
  const sandbox = await startSandbox({ port: 0, dataDir, quiet: true, rateWindowMs: windowMs, adjudicationDelayMs: 60_000 });
  const database = await openDatabase(databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite-memory" });
  await runMigrations(database);
  await seedDemoPatients(database.db);
  const creds = sandbox.credentials;
  const config = {
    environment: "sandbox" as const,
    baseUrl: sandbox.url,
    tokenUrl: `${sandbox.url}/oauth/token`,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    tls: { certFile: creds.cert, keyFile: creds.key, caFile: creds.ca },
    providerOrgId: creds.providerOrgId,
    protocol,
  };
  const client = createPlatformClient(config, { db: database.db, limits: { windowMs }, logger: createLogger("warn") });
  const port = portFor(client, database.db, sentClaimReads(database.db));
  const limiter = client.rateLimiter;

  const today = new Date();
  const tomorrow = new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10);
  const counter = await Promise.all(
    PATIENTS.map(async (id) => {
      const p = (await findPatientByNationalId(database.db, id))!;
      return { patientId: p.id, coverageId: (await listCoverages(database.db, p.id))[0]!.id };
    }),
  );

  const platformMs: number[] = [];
  const timedPort = {
    checkEligibility: async (...args: Parameters<typeof port.checkEligibility>) => {
      const t0 = performance.now();
      try {
        return await port.checkEligibility(...args);
      } finally {
        if (debug) platformMs.push(performance.now() - t0);
      }
    },
  };
  /** One interactive check as the eligibility form makes it: no wait in the limiter; over the quota, come back when told. */
  async function interactive(i: number): Promise<{ ms: number; waited: boolean }> {
    const subject = counter[i % counter.length]!;
    const started = performance.now();
    let waited = false;
    for (;;) {
      const outcome = await runEligibilityCheck(
        { db: database.db, client: timedPort, providerOrgId: config.providerOrgId },
        { actor: { kind: "system", name: "bench" } },
        { ...subject, servicedDate: tomorrow, purposes: ["benefits", "validation"], categories: [] },
      );
      if (outcome.kind !== "rate_limited") break;
      waited = true;
      await sleep(outcome.retryAfterMs);
    }
    return { ms: performance.now() - started, waited };
  }

  const settings = {
    visits: n,
    protocol,
    windowMs,
    platformLimit: PLATFORM_RATE_LIMITS.eligibility,
    portalLimitPerWindow: limiter.effectiveLimit("eligibility"),
    batchLimitPerWindow: limiter.batchLimit("eligibility"),
    marginMs: DEFAULT_RATE_LIMIT_CONFIG.marginMs,
    batchShare: limiter.config.batchShare,
    workerConcurrency: concurrency,
    interactiveChecks: interactiveCount,
    database: databaseUrl ? "postgresql" : "pglite",
  };
  console.log("settings", JSON.stringify(settings));

  // Warm-up (token, TLS), then the baseline: interactive checks spread over half a window, no run.
  await interactive(0);
  const spacing = Math.max(50, Math.floor(windowMs / 2 / interactiveCount));
  const baseline: { ms: number; waited: boolean }[] = [];
  for (let i = 0; i < interactiveCount; i++) {
    baseline.push(await interactive(i));
    await sleep(spacing);
  }
  // Let the baseline's permits leave the window so the run starts from an empty one.
  await sleep(windowMs + DEFAULT_RATE_LIMIT_CONFIG.marginMs + 100);
  const stats0 = client.stats();

  const items = Array.from({ length: n }, (_, i) => ({ nationalId: PATIENTS[i % PATIENTS.length]!, serviceDate: tomorrow, services: SERVICES[i % SERVICES.length]! }));
  const runStarted = performance.now();
  const list = await importVisitList(database.db, { name: "bench", source: "api", items, allowSandboxTestIds: true, run: "now" });
  const worker = startVisitWorker({ db: database.db, port, providerOrgId: config.providerOrgId, concurrency, pollMs: 100 });

  // Interactive checks during the run, spread over its expected length.
  // The last window's batch starts after (windows − 1) full spans.
  const expectedMs = (Math.ceil(n / limiter.batchLimit("eligibility")) - 1) * (windowMs + DEFAULT_RATE_LIMIT_CONFIG.marginMs);
  const during: { ms: number; waited: boolean }[] = [];
  const interactiveLoop = (async () => {
    const every = Math.max(50, Math.floor(expectedMs / (interactiveCount + 1)));
    for (let i = 0; i < interactiveCount; i++) {
      await sleep(every);
      if ((await getRun(database.db, list.run!.id))?.status === "done") break;
      if (debug) {
        const t0 = performance.now();
        await limiter.interactiveWaiters("eligibility");
        const t1 = performance.now();
        const tok = await client.accessToken();
        void tok;
        const h = (globalThis as { __eld?: import("node:perf_hooks").IntervalHistogram }).__eld;
        if (h) console.log(`  event loop delay p99 ${(h.percentile(99) / 1e6).toFixed(0)} ms max ${(h.max / 1e6).toFixed(0)} ms`);
        console.log(`  probe: db ${(t1 - t0).toFixed(0)} ms, token ${(performance.now() - t1).toFixed(0)} ms`);
      }
      during.push(await interactive(i));
    }
  })();
  let lastLog = 0;
  for (;;) {
    const run = await getRun(database.db, list.run!.id);
    if (run?.status === "done") break;
    if (performance.now() - lastLog > Math.min(30_000, windowMs / 2)) {
      lastLog = performance.now();
      const done = (await database.query<{ n: number }>(`select count(*)::int as n from visits where check_state = 'done'`))[0]?.n ?? 0;
      console.log(`  … ${done}/${n} visits checked after ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);
    }
    await sleep(250);
  }
  const runMs = performance.now() - runStarted;
  await interactiveLoop;
  await worker.stop();
  const stats1 = client.stats();

  const verdicts = await database.query<{ verdict: string; n: number }>(`select verdict, count(*)::int as n from visits group by verdict order by verdict`);
  const checks = (await database.query<{ n: number }>(`select count(*)::int as n from eligibility_checks where checked_by is null`))[0]?.n ?? 0;
  const p = (xs: { ms: number }[]) => {
    const sorted = xs.map((x) => x.ms).sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN, waited: xs.filter((x) => "waited" in x && (x as { waited: boolean }).waited).length };
  };
  const a = p(baseline);
  const b = p(during);
  console.log("");
  console.log(`run of ${n} visits: ${(runMs / 1000).toFixed(1)} s (${(n / (runMs / 60_000)).toFixed(1)} checks/min; the pacing allows no less than ${(expectedMs / 1000).toFixed(0)} s at ${limiter.batchLimit("eligibility")} batch permits per window)`);
  console.log(`platform 429 answers: ${stats1.rateLimited} (during the run: ${stats1.rateLimited - stats0.rateLimited})`);
  console.log(`eligibility checks stored: ${checks} (visits: ${n}; interactive: ${1 + a.n + b.n})`);
  console.log(`verdicts: ${verdicts.map((v) => `${v.verdict}=${v.n}`).join(", ")}`);
  console.log(`interactive checks without a run: n=${a.n} p50=${ms(a.p50)} p95=${ms(a.p95)} max=${ms(a.max)} waited for quota=${a.waited}`);
  console.log(`interactive checks during the run: n=${b.n} p50=${ms(b.p50)} p95=${ms(b.p95)} max=${ms(b.max)} waited for quota=${b.waited}`);
  if (debug) console.log("platform call ms (interactive):", platformMs.map((x) => x.toFixed(0)).join(" "));
  console.log(`TLS handshakes: ${stats1.tlsHandshakes}, platform calls: ${stats1.calls}`);

  await client.close();
  await sandbox.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (stats1.rateLimited > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
