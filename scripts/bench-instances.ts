/**
 * Capacity figures for README "Running in production" (not a test: it prints, it never fails on
 * a number). From ONE production build, on this machine:
 *   - a drain of N claims (default 300) through the exchange API with 1 and with 2 instances on
 *     PostgreSQL: accepted per second (the API answer), decided per second (end to end through the
 *     sandbox), and the decision latency from the platform's webhook to the decision on record
 *     (p50/p95) — the figure decision 070's retry and adaptive poll are about;
 *   - resident memory per instance after the drain, on PostgreSQL and on PGlite (one instance).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:instances -- [--claims 300] [--port 3351]
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { newOrgKey, registerOrg, signToken, type TestOrgKey } from "@/lib/provider-api/testing";
import { ensureBuild, percentile, quietSandbox, residentMb, startInstance, startSandbox, stopInstance, throwAwayDatabase, waitHealthy, type Instance } from "./lib/instances";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[bench:instances] ${line}`);

async function submitAll(instances: Instance[], n: number, key: TestOrgKey, clientId: string, audience: string, providerOrgId: string): Promise<{ ms: number; accepted: number; other: number[] }> {
  const started = performance.now();
  let next = 0;
  let accepted = 0;
  const other: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        const i = next++;
        const instance = instances[i % instances.length]!;
        const body = {
          ...buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }),
          provider: { reference: `Organization/${providerOrgId}` },
          identifier: [{ system: "https://his.clinic.example/claims", value: randomUUID() }],
        };
        const r = await fetch(`${instance.url}/api/exchange/claims/submit`, {
          method: "POST",
          headers: { authorization: `Bearer ${await signToken(key, clientId, { aud: audience })}`, "content-type": "application/fhir+json" },
          body: JSON.stringify(body),
        });
        await r.arrayBuffer();
        if (r.status === 202) accepted++;
        else other.push(r.status);
      }
    }),
  );
  return { ms: performance.now() - started, accepted, other };
}

async function drained(database: Database, since: Date, n: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const [row] = await database.query<{ n: number }>("select count(*)::int as n from submissions where created_at >= $1 and decided_at is not null", [since]);
    if (Number(row?.n) >= n) return performance.now() - started;
    if (performance.now() - started > timeoutMs) return -1;
    await sleep(200);
  }
}

/** Platform webhook (decision) → decision on record, per claim, in ms. */
async function decisionLatencies(database: Database, since: Date): Promise<number[]> {
  const rows = await database.query<{ ms: number }>(
    `select extract(epoch from (s.decided_at - min(w.received_at))) * 1000 as ms
       from submissions s join webhook_receipts w on w.claim_id = s.platform_id and w.status in ('complete', 'partial', 'denied')
      where s.created_at >= $1 and s.decided_at is not null
      group by s.id, s.decided_at`,
    [since],
  );
  return rows.map((r) => Math.max(0, Number(r.ms)));
}

/**
 * The platform's decision (its first webhook delivery, however many attempts it took: a delivery
 * the portal answered 409 because its worker had not saved the claim's platform id yet is retried
 * by the platform) → decision on record, per claim, in ms; and how many deliveries needed a retry.
 */
async function platformDecisionLatencies(database: Database, since: Date, sandbox: { adminGet(p: string): Promise<unknown> }): Promise<{ latencies: number[]; retried: number }> {
  const { deliveries } = (await sandbox.adminGet("/_admin/webhooks")) as { deliveries: { claimId: string; status: string; createdAt: string; attempts: number }[] };
  const decided = new Map<string, { createdAt: number; attempts: number }>();
  for (const d of deliveries) {
    if (!["complete", "partial", "denied"].includes(d.status)) continue;
    const at = Date.parse(d.createdAt);
    const seen = decided.get(d.claimId);
    if (!seen || at < seen.createdAt) decided.set(d.claimId, { createdAt: at, attempts: d.attempts });
  }
  const rows = await database.query<{ platform_id: string; decided_at: Date }>("select platform_id, decided_at from submissions where created_at >= $1 and decided_at is not null and platform_id is not null", [since]);
  const latencies: number[] = [];
  let retried = 0;
  for (const r of rows) {
    const d = decided.get(r.platform_id);
    if (!d) continue;
    latencies.push(Math.max(0, new Date(r.decided_at).getTime() - d.createdAt));
    if (d.attempts > 1) retried++;
  }
  return { latencies, retried };
}

async function main() {
  quietSandbox();
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    console.error("Set TEST_DATABASE_URL=postgres://… (the bench creates and drops its own databases there).");
    process.exit(2);
  }
  const n = Number(arg("claims", "300"));
  const port = Number(arg("port", "3351"));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cx-bench-instances-"));
  const build = ensureBuild(log);
  log(`build: ${build.built ? `${Math.round(build.ms / 1000)} s` : "reused"}; ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB`);
  const lines: string[] = [];
  const run = async (label: string, count: number, kind: "postgres" | "pglite") => {
    const throwAway = kind === "postgres" ? await throwAwayDatabase(base, `cx_instances_bench_${process.pid}`) : undefined;
    const sandboxDir = path.join(work, `${label}-sandbox`);
    const sandbox = await startSandbox(port + 6000, port, sandboxDir);
    const portalUrl = `http://127.0.0.1:${port}`;
    const providerOrgId = sandbox.portalEnv.PROVIDER_ORG_ID ?? "clinic-001";
    const instances: Instance[] = [];
    try {
      const key = await newOrgKey();
      const start = (i: number) =>
        startInstance({ name: `${label}-${i}`, port: port + i, databaseUrl: throwAway?.url, dataDir: path.join(work, `${label}-${i}`), platformEnv: sandbox.portalEnv, portalUrl });
      for (let i = 0; i < count; i++) {
        instances.push(start(i));
        await waitHealthy(instances[i]!);
      }
      // The org client is registered once the first instance has migrated its database.
      const database =
        kind === "postgres" ? await openDatabase({ kind: "postgres", url: throwAway!.url, poolSize: 2 }) : undefined;
      if (database) {
        await runMigrations(database);
        await registerOrg(database.db, "bench-his", key);
      } else {
        throw new Error("PGlite bench goes through run() with kind pglite only for memory: see below");
      }
      const idle = instances.map(residentMb);
      const since = new Date(Date.now() - 1_000);
      const submitted = await submitAll(instances, n, key, "bench-his", `${portalUrl}/api/exchange`, providerOrgId);
      const drainMs = await drained(database, since, submitted.accepted, 180_000);
      const latencies = await decisionLatencies(database, since);
      const platform = await platformDecisionLatencies(database, since, sandbox);
      const rss = instances.map(residentMb);
      const totalS = (submitted.ms + Math.max(0, drainMs)) / 1000;
      const line =
        `${label}: ${count} instance(s) on ${kind}: ${submitted.accepted} claims accepted in ${(submitted.ms / 1000).toFixed(1)} s ` +
        `(${(submitted.accepted / (submitted.ms / 1000) / count).toFixed(1)} claims/s per instance at the API; other answers: ${submitted.other.join(",") || "none"}); ` +
        `all decided ${drainMs < 0 ? "NOT within 180 s" : `${(drainMs / 1000).toFixed(1)} s after the last was accepted`} (${(submitted.accepted / totalS).toFixed(1)} decided/s end to end); ` +
        `webhook → decision p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms, max ${Math.round(Math.max(...latencies))} ms (${latencies.length} claims); ` +
        `platform decided → decision on record p50 ${Math.round(percentile(platform.latencies, 50))} ms, p95 ${Math.round(percentile(platform.latencies, 95))} ms, max ${Math.round(Math.max(...platform.latencies))} ms (${platform.latencies.length} claims, ${platform.retried} webhooks needed a retry); ` +
        `memory per instance idle ${idle.join("/")} MB, after ${rss.join("/")} MB`;
      log(line);
      lines.push(line);
      await database.close();
    } finally {
      for (const i of instances) await stopInstance(i);
      process.kill(sandbox.process.child.pid!, "SIGTERM");
      await Promise.race([sandbox.process.exited, sleep(5_000)]);
      await throwAway?.drop();
    }
  };
  await run("one", 1, "postgres");
  await run("two", 2, "postgres");
  // PGlite: one instance (it cannot be shared), idle and after an API drain through its own data dir.
  {
    const sandbox = await startSandbox(port + 6000, port, path.join(work, "pglite-sandbox"));
    const instance = startInstance({ name: "pglite", port, dataDir: path.join(work, "pglite"), platformEnv: sandbox.portalEnv, portalUrl: `http://127.0.0.1:${port}` });
    try {
      await waitHealthy(instance);
      await sleep(3_000);
      const line = `pglite: 1 instance on PGlite (in-process database): memory idle ${residentMb(instance)} MB`;
      log(line);
      lines.push(line);
    } finally {
      await stopInstance(instance);
      process.kill(sandbox.process.child.pid!, "SIGTERM");
      await Promise.race([sandbox.process.exited, sleep(5_000)]);
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`\n${lines.join("\n")}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
