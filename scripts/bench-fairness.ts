/**
 * Fairness bench (docs/decisions/093): one API client sends a worst-case claim while
 * other organizations keep sending ordinary traffic; prints what the big request was answered and
 * how long the others waited.
 *
 *   npm run bench:fairness -- [--port 3310] [--big 20000] [--max <lines>] [--others 3] [--window 8] [--reuse-build] [--database-url postgres://…]
 *
 * Starts the production portal (one build, reused when current; PGlite as `npm start` uses, or
 * PostgreSQL with --database-url) and the sandbox over mTLS, registers one "big" organization and
 * `--others` ordinary ones, then runs phases:
 *   baseline   — only the others' traffic (a one-line claim for another patient + its status);
 *   max-size   — the big client sends a claim with the most lines allowed (CLAIM_LIMITS.lines);
 *   big        — the big client sends a `--big`-line claim (20,000 by default: must be refused fast);
 *   after      — the others' traffic for `--window` s after the big claims (the outbox drains them);
 * then one one-line claim for the big claims' patient (the "every later claim of that patient" cost).
 * For each phase: the big request's status and time, the others' n, p50, p95 and max (the longest
 * any other request waited). Timing never fails the script; an error starting things exits 1.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { newOrgKey, registerOrg, signToken, type TestOrgKey } from "@/lib/provider-api/testing";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { stopAll } from "./lib/processes";
import { ensureBuild, percentile, quietSandbox, startInstance, startSandbox, stopInstance, waitHealthy, type Instance } from "./lib/instances";

const log = (line: string) => console.log(`[fairness] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const hit = process.argv[i]!;
  if (hit.includes("=")) return hit.slice(hit.indexOf("=") + 1);
  const next = process.argv[i + 1];
  return next && !next.startsWith("--") ? next : "true";
}

interface Org {
  clientId: string;
  key: TestOrgKey;
}

interface Answer {
  status: number;
  ms: number;
  body: string;
  retryAfter?: string | null;
}

async function post(instance: Instance, audience: string, org: Org, route: string, body: unknown): Promise<Answer> {
  const token = await signToken(org.key, org.clientId, { aud: audience });
  const payload = JSON.stringify(body);
  const started = performance.now();
  try {
    const r = await fetch(`${instance.url}/api/exchange/${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/fhir+json" },
      body: payload,
      signal: AbortSignal.timeout(300_000),
    });
    const text = await r.text();
    return { status: r.status, ms: performance.now() - started, body: text.slice(0, 400), retryAfter: r.headers.get("retry-after") };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, body: String(error).slice(0, 200) };
  }
}

async function get(instance: Instance, audience: string, org: Org, route: string): Promise<Answer> {
  const token = await signToken(org.key, org.clientId, { aud: audience });
  const started = performance.now();
  try {
    const r = await fetch(`${instance.url}${route}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(300_000) });
    const text = await r.text();
    return { status: r.status, ms: performance.now() - started, body: text.slice(0, 200) };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, body: String(error).slice(0, 200) };
  }
}

function claimWithLines(lines: number, patientId: string, providerOrgId: string) {
  const codes = ["99213", "85025", "80053", "71046", "93000"];
  return {
    ...buildClaim({ use: "claim", patientId, items: Array.from({ length: lines }, (_, i) => ({ code: codes[i % codes.length]!, price: 10 + (i % 90) })) }),
    provider: { reference: `Organization/${providerOrgId}` },
    identifier: [{ system: "https://his.clinic.example/claims", value: randomUUID() }],
  };
}

/** The others' traffic: each org in a loop, a one-line claim then its status; every request's time. */
function traffic(instance: Instance, audience: string, orgs: Org[], providerOrgId: string) {
  const samples: { at: number; ms: number; status: number }[] = [];
  let running = true;
  const loops = orgs.map(async (org) => {
    while (running) {
      const at = performance.now();
      const a = await post(instance, audience, org, "claims/submit", claimWithLines(1, "1000000002", providerOrgId));
      samples.push({ at, ms: a.ms, status: a.status });
      const location = /"value":"([0-9a-f-]{36})"/.exec(a.body)?.[1];
      if (location && running) {
        const at2 = performance.now();
        const s = await get(instance, audience, org, `/api/exchange/claims/${location}/status`);
        samples.push({ at: at2, ms: s.ms, status: s.status });
      }
      await sleep(100);
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

interface Row {
  phase: string;
  big?: string;
  n: number;
  p50: number;
  p95: number;
  max: number;
  errors: number;
}
const rows: Row[] = [];

function summarize(phase: string, samples: { at: number; ms: number; status: number }[], from: number, to: number, big?: string) {
  // A request counts in a phase when it started inside the phase's window.
  const inWindow = samples.filter((s) => s.at >= from && s.at < to);
  const ms = inWindow.map((s) => s.ms);
  const row: Row = {
    phase,
    ...(big ? { big } : {}),
    n: ms.length,
    p50: Math.round(percentile(ms, 50)),
    p95: Math.round(percentile(ms, 95)),
    max: Math.round(Math.max(0, ...ms)),
    errors: inWindow.filter((s) => s.status >= 500 || s.status === 0).length,
  };
  rows.push(row);
  log(`${phase.padEnd(10)} others n=${String(row.n).padStart(4)} p50 ${String(row.p50).padStart(6)} ms  p95 ${String(row.p95).padStart(6)} ms  max ${String(row.max).padStart(6)} ms  5xx ${row.errors}${big ? `  | big: ${big}` : ""}`);
}

function describe(a: Answer): string {
  const refused = a.status >= 400 || a.status === 0;
  const code = refused ? /"text":"([^"]+)"|"reason":"([^"]+)"/.exec(a.body) : null;
  const diagnostics = refused ? /"diagnostics":"([^"]{0,160})|"message":"([^"]{0,160})/.exec(a.body) : null;
  return `${a.status} in ${Math.round(a.ms)} ms${a.retryAfter ? ` (Retry-After ${a.retryAfter})` : ""}${code ? ` ${code[1] ?? code[2]}` : ""}${diagnostics ? ` — ${diagnostics[1] ?? diagnostics[2]}` : ""}`;
}

async function main(): Promise<number> {
  const port = Number(arg("port") ?? process.env.FAIRNESS_PORT ?? 3310);
  const bigLines = Number(arg("big") ?? 20_000);
  const maxLines = Number(arg("max") ?? ((await import("@/lib/fhir")) as { CLAIM_LIMITS?: { lines: number } }).CLAIM_LIMITS?.lines ?? 1000);
  const otherCount = Number(arg("others") ?? 3);
  const windowS = Number(arg("window") ?? 8);
  const databaseUrl = arg("database-url");
  quietSandbox();
  // --reuse-build: run the build that is there as it is (e.g. the code before a change), not a fresh one.
  if (arg("reuse-build")) log("using the existing build as it is (--reuse-build)");
  else {
    const build = ensureBuild(log);
    log(`build ${build.built ? `${build.ms} ms` : "reused"}`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cx-fairness-"));
  const dataDir = path.join(work, "portal");
  const database = await openDatabase(databaseUrl ? { kind: "postgres", url: databaseUrl, poolSize: 2 } : { kind: "pglite", dataDir });
  const big: Org = { clientId: "big-his", key: await newOrgKey() };
  const others: Org[] = [];
  for (let i = 0; i < otherCount; i++) others.push({ clientId: `other-his-${i + 1}`, key: await newOrgKey() });
  try {
    await runMigrations(database);
    for (const org of [big, ...others]) await registerOrg(database.db, org.clientId, org.key);
  } finally {
    await database.close();
  }
  let instance: Instance | undefined;
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  try {
    sandbox = await startSandbox(port + 6000, port, path.join(work, "sandbox"));
    const providerOrgId = sandbox.portalEnv.PROVIDER_ORG_ID ?? "clinic-001";
    const portalUrl = `http://127.0.0.1:${port}`;
    const audience = `${portalUrl}/api/exchange`;
    instance = startInstance({ name: "portal", port, dataDir, ...(databaseUrl ? { databaseUrl } : {}), platformEnv: sandbox.portalEnv, portalUrl });
    log(`portal ready in ${await waitHealthy(instance)} ms (${databaseUrl ? "PostgreSQL" : "PGlite"}); others: ${otherCount} organizations`);
    // Warm-up: the first requests compile routes and open connections.
    for (const org of others) await post(instance, audience, org, "claims/submit", claimWithLines(1, "1000000002", providerOrgId));
    await post(instance, audience, big, "claims/submit", claimWithLines(1, "1000000001", providerOrgId));

    const t = traffic(instance, audience, others, providerOrgId);
    let from = performance.now();
    await sleep(windowS * 1000);
    summarize("baseline", t.samples, from, performance.now());

    for (const [phase, lines] of [
      ["max-size", maxLines],
      ["big", bigLines],
    ] as const) {
      from = performance.now();
      const answer = await post(instance, audience, big, "claims/submit", claimWithLines(lines, "1000000001", providerOrgId));
      // The others' requests that started while it ran, and a short while after (its scrub and send run on).
      await sleep(2_000);
      summarize(phase, t.samples, from, performance.now(), `${lines} lines → ${describe(answer)}`);
    }
    from = performance.now();
    await sleep(windowS * 1000);
    summarize("after", t.samples, from, performance.now());
    await t.stop();
    const samePatient = await post(instance, audience, big, "claims/submit", claimWithLines(1, "1000000001", providerOrgId));
    log(`a one-line claim for the big claims' patient afterwards: ${describe(samePatient)}`);
    const result = { port, bigLines, maxLines, others: otherCount, windowS, database: databaseUrl ? "postgres" : "pglite", rows, samePatient: { status: samePatient.status, ms: Math.round(samePatient.ms) } };
    fs.mkdirSync("test-results", { recursive: true });
    fs.writeFileSync(path.join("test-results", "bench-fairness.json"), JSON.stringify(result, null, 2));
    log(`figures written to test-results/bench-fairness.json`);
    return 0;
  } finally {
    if (instance) await stopInstance(instance);
    if (sandbox) await stopAll([sandbox.process]);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
