/**
 * The scale-out test (`npm test` runs it as its own step; `npm run test:scale-out` alone): two
 * portal instances from ONE production build on one PostgreSQL database, and the sandbox —
 * docs/decisions/069 and 070. It checks, and prints the figures of:
 *   1. shared quota: 150 eligibility checks in 2 s over both instances → ≥ 98 reach the platform
 *      in that minute, none is answered 429 by the platform, the others hear 429 + Retry-After;
 *   2. live events across instances: a staff browser's event stream on B hears a decision A applied;
 *   3. SIGTERM with requests in flight: claims sent to B while it stops are answered 202 (with their
 *      row and audit entry) or 503 + Retry-After (with no row) — never a 5xx;
 *   4. exactly-once under kill -9: claims drained by both, A killed mid-drain, B resends A's leased
 *      work; no claim is stored twice at the platform; how long until B took A's work over.
 * Without TEST_DATABASE_URL it says SKIPPED and exits 0 (two instances need PostgreSQL; CI has it).
 * Ports: SCALE_OUT_PORT (default 3351; B is +1) and the sandbox at +6000.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { DEMO_USERS } from "@/lib/auth";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { newOrgKey, registerOrg, signToken, type TestOrgKey } from "@/lib/provider-api/testing";
import { eligibilityRequest } from "@/lib/platform/testing";
import { ensureBuild, percentile, quietSandbox, startInstance, startSandbox, signal, stopInstance, throwAwayDatabase, treePids, waitHealthy, type Instance } from "./lib/instances";

const RESULT_FILE = path.resolve("test-results", "scale-out.json");
const log = (line: string) => console.log(`[scale-out] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}
const checks: Check[] = [];
const figures: Record<string, number | string> = {};
function check(name: string, ok: boolean, detail: string) {
  checks.push({ name, ok, detail });
  log(`${ok ? "PASS" : "FAIL"} ${name}: ${detail}`);
}

function writeResult(extra: Record<string, unknown>) {
  fs.mkdirSync(path.dirname(RESULT_FILE), { recursive: true });
  fs.writeFileSync(RESULT_FILE, JSON.stringify({ checks, figures, ...extra }, null, 2));
}

class Api {
  constructor(
    private readonly key: TestOrgKey,
    private readonly clientId: string,
    private readonly audience: string,
    private readonly providerOrgId: string,
  ) {}
  async post(instance: Instance, route: string, body: unknown): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
    const token = await signToken(this.key, this.clientId, { aud: this.audience });
    const r = await fetch(`${instance.url}/api/exchange/${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/fhir+json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await r.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { text: text.slice(0, 200) };
    }
    return { status: r.status, body: parsed, headers: r.headers };
  }
  claim(identifier = randomUUID()) {
    return {
      ...buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }] }),
      provider: { reference: `Organization/${this.providerOrgId}` },
      identifier: [{ system: "https://his.clinic.example/claims", value: identifier }],
    };
  }
  eligibility() {
    return eligibilityRequest("1000000001", "payer-rimal", this.providerOrgId);
  }
}

/** Signs a demo user in on `instance` (Auth.js credentials) and returns the session cookie. */
async function signIn(instance: Instance): Promise<string> {
  // The manager sees every claim's events (the front desk's audience is narrower).
  const user = DEMO_USERS.find((u) => u.roles.includes("manager" as never)) ?? DEMO_USERS[0]!;
  const csrf = await fetch(`${instance.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // The proxy and the route may both set the CSRF cookie: the last one matches the token.
  const jar = new Map(csrf.headers.getSetCookie().map((c) => c.split(";")[0]!.split(/=(.*)/s) as [string, string]));
  const cookies = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const r = await fetch(`${instance.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    // As a browser sends it: the origin rule refuses a cookie-authenticated write without it (decision 060).
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies, "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ csrfToken, email: user.email, password: process.env.DEMO_PASSWORD ?? "demo-pass-2026", callbackUrl: `${instance.url}/` }).toString(),
  });
  const session = r.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.includes("session-token"));
  if (!session) throw new Error(`sign-in on ${instance.name} failed (${r.status} → ${r.headers.get("location")}; cookies ${r.headers.getSetCookie().map((c) => c.split("=")[0]).join(",")})`);
  return session;
}

/** Opens the live-event stream on `instance`; resolves each event's arrival time by data. */
function openStream(instance: Instance, cookie: string, onEvent: (data: string, at: number) => void): AbortController {
  const controller = new AbortController();
  void (async () => {
    const r = await fetch(`${instance.url}/api/events`, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal });
    if (!r.ok || !r.body) {
      onEvent(`{"streamStatus":${r.status}}`, Date.now());
      return;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = event
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n");
        if (data) onEvent(data, Date.now());
      }
    }
  })().catch(() => undefined);
  return controller;
}

async function waitUntil(what: string, timeoutMs: number, test: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await test())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
  return performance.now() - started;
}

async function count(database: Database, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await database.query<{ n: number }>(sql, params);
  return Number(row?.n ?? 0);
}

/** Claims the sandbox created, per identifier (its journal): more than one is a double. */
function platformClaims(sandboxDir: string): Map<string, number> {
  const byKey = new Map<string, number>();
  const file = path.join(sandboxDir, "journal.jsonl");
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.includes('"claim.created"')) continue;
    try {
      const e = JSON.parse(line) as { type: string; record?: { identifierKey: string } };
      if (e.type === "claim.created" && e.record) byKey.set(e.record.identifierKey, (byKey.get(e.record.identifierKey) ?? 0) + 1);
    } catch {
      // a torn last line
    }
  }
  return byKey;
}

async function main(): Promise<number> {
  quietSandbox();
  const started = performance.now();
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    log("SKIPPED: TEST_DATABASE_URL is not set (two instances need PostgreSQL; CI has it)");
    writeResult({ skipped: true, reason: "TEST_DATABASE_URL unset" });
    return 0;
  }
  const port = Number(process.env.SCALE_OUT_PORT ?? 3351);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cx-scale-out-"));
  const build = ensureBuild(log);
  figures.buildMs = build.ms;
  const dbName = `cx_scaleout_${process.pid}`;
  const throwAway = await throwAwayDatabase(base, dbName);
  const database = await openDatabase({ kind: "postgres", url: throwAway.url, poolSize: 4 });
  const instances: Instance[] = [];
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  try {
    await runMigrations(database);
    const sandboxDir = path.join(work, "sandbox");
    sandbox = await startSandbox(port + 6000, port, sandboxDir);
    const portalUrl = `http://127.0.0.1:${port}`;
    const providerOrgId = sandbox.portalEnv.PROVIDER_ORG_ID ?? "clinic-001";
    const key = await newOrgKey();
    await registerOrg(database.db, "scale-his", key);
    const api = new Api(key, "scale-his", `${portalUrl}/api/exchange`, providerOrgId);
    const start = (name: string, p: number) => {
      const instance = startInstance({ name, port: p, databaseUrl: throwAway.url, dataDir: path.join(work, name), platformEnv: sandbox!.portalEnv, portalUrl, extraEnv: { OUTBOX_LEASE_MS: "5000", SHUTDOWN_GRACE_MS: "10000" } });
      instances.push(instance);
      return instance;
    };
    // One after the other, as a rolling start does (the first migrates and seeds).
    const a = start("A", port);
    const startA = await waitHealthy(a);
    let b = start("B", port + 1);
    figures.startMs = startA + (await waitHealthy(b));
    log(`two instances ready in ${figures.startMs} ms (build ${build.built ? `${build.ms} ms` : "reused"})`);

    // 1. Shared quota: 150 eligibility checks in 2 s over both instances.
    {
      const t0 = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 150 }, async (_, i) => {
          await sleep(Math.floor((i / 150) * 2_000));
          return api.post(i % 2 === 0 ? a : b, "eligibility/check", api.eligibility());
        }),
      );
      const served = answers.filter((r) => r.status === 200).length;
      const refused = answers.filter((r) => r.status === 429);
      const honest = refused.every((r) => Number(r.headers.get("retry-after")) >= 1 && Number(r.headers.get("retry-after")) <= 61);
      // Every check the platform answered is saved; a platform 429 pauses the bucket (a block row).
      const reached = await count(database, "select count(*)::int as n from eligibility_checks where checked_at >= $1", [new Date(t0 - 1_000)]);
      const platform429 = await count(database, "select coalesce(sum(hits), 0)::int as n from platform_rate_blocks where bucket = 'eligibility'");
      const other = answers.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.status);
      figures.burstPermitsUsed = reached;
      figures.burstPlatform429 = platform429;
      check("shared quota", reached >= 98 && platform429 === 0 && honest && other.length === 0, `${reached} of 100 permits reached the platform (${served} answered 200), ${refused.length} × 429 with Retry-After, ${platform429} × 429 from the platform, other statuses: ${other.join(",") || "none"}`);
    }

    // 2. Live events across instances: a stream on B hears the decision A's webhook applied.
    {
      const cookie = await signIn(b);
      const heard = new Map<string, number>();
      const stream = openStream(b, cookie, (data, at) => heard.set(data, at));
      await sleep(500);
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await api.post(a, "claims/submit", api.claim());
        const id = (answer.body.identifier as { value: string }[] | undefined)?.[0]?.value;
        if (answer.status !== 202 || !id) throw new Error(`claim submit answered ${answer.status}`);
        await waitUntil("the decision", 30_000, async () => (await count(database, "select count(*)::int as n from submissions where id = $1 and decided_at is not null", [id])) > 0);
        const [row] = await database.query<{ decided_at: Date }>("select decided_at from submissions where id = $1", [id]);
        const decidedAt = new Date(row!.decided_at).getTime();
        const decisionHeard = () =>
          [...heard.entries()].filter(([d]) => {
            try {
              const e = JSON.parse(d) as { submissionId?: string; status?: string };
              return e.submissionId === id && !!e.status && !["draft", "queued", "sent", "pended"].includes(e.status);
            } catch {
              return false;
            }
          });
        await waitUntil("the live event on B", 10_000, async () => decisionHeard().length > 0).catch((error: unknown) => {
          throw new Error(`${(error as Error).message}: heard ${heard.size} events, e.g. ${[...heard.keys()].slice(-2).join(" | ").slice(0, 400)}`);
        });
        const arrival = Math.min(...decisionHeard().map(([, t]) => t));
        latencies.push(arrival - decidedAt);
      }
      stream.abort();
      figures.liveAcrossMsP50 = Math.round(percentile(latencies, 50));
      figures.liveAcrossMsMax = Math.round(Math.max(...latencies));
      check("live across instances", latencies.every((ms) => ms < 5_000), `a decision applied on A reached a stream on B after ${latencies.map((ms) => Math.round(ms)).join(", ")} ms`);
    }

    // 3. SIGTERM with requests in flight: claims to B while it stops.
    {
      const answers: { status: number; id?: string; identifier: string; retryAfter: string | null }[] = [];
      let stop = false;
      const senders = Array.from({ length: 8 }, async () => {
        while (!stop) {
          const identifier = randomUUID();
          try {
            const r = await api.post(b, "claims/submit", api.claim(identifier));
            answers.push({ status: r.status, id: (r.body.identifier as { value: string }[] | undefined)?.[0]?.value, identifier, retryAfter: r.headers.get("retry-after") });
          } catch {
            // Connection refused once B has exited: the load balancer would have sent it elsewhere.
            if (stop) return;
            await sleep(20);
          }
        }
      });
      await sleep(1_500);
      const signalledAt = performance.now();
      signal(b, "SIGTERM");
      const code = await b.exited;
      figures.sigtermExitMs = Math.round(performance.now() - signalledAt);
      stop = true;
      await Promise.all(senders);
      const accepted = answers.filter((r) => r.status === 202);
      const refused = answers.filter((r) => r.status === 503);
      const fivexx = answers.filter((r) => r.status >= 500 && r.status !== 503).length + refused.filter((r) => r.retryAfter === null).length;
      let missingRows = 0;
      let missingAudit = 0;
      for (const r of accepted) {
        if ((await count(database, "select count(*)::int as n from submissions where id = $1", [r.id])) !== 1) missingRows++;
        if ((await count(database, "select count(*)::int as n from audit_events where target_id = $1 and action = 'exchange.claim.submit'", [r.id])) < 1) missingAudit++;
      }
      let refusedButSaved = 0;
      for (const r of refused) {
        if ((await count(database, "select count(*)::int as n from submissions where strpos(claim::text, $1) > 0", [r.identifier])) > 0) refusedButSaved++;
      }
      figures.sigterm5xx = fivexx;
      figures.sigtermMissingAudit = missingAudit;
      check(
        "SIGTERM with requests in flight",
        code === 0 && fivexx === 0 && missingRows === 0 && missingAudit === 0 && refusedButSaved === 0 && accepted.length > 0,
        `${answers.length} answers: ${accepted.length} × 202 (rows missing ${missingRows}, audit missing ${missingAudit}), ${refused.length} × 503 + Retry-After (saved anyway ${refusedButSaved}), 5xx ${fivexx}; exit ${code} after ${figures.sigtermExitMs} ms`,
      );
      b = start("B2", port + 1);
      await waitHealthy(b);
    }

    // 4. Exactly-once under kill -9: 200 claims through both; A is killed while it holds leases.
    {
      const aPids = new Set(treePids(a).map(String));
      const isA = (owner: string) => aPids.has(owner.split(":").at(-2) ?? "");
      const ids: string[] = [];
      let heldByA: string[] = [];
      let killedAt = 0;
      const submitting = (async () => {
        for (let i = 0; i < 200; i += 10) {
          const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => api.post((i + j) % 2 === 0 || killedAt ? b : a, "claims/submit", api.claim()).catch(() => undefined)));
          for (const r of batch) {
            const id = (r?.body.identifier as { value: string }[] | undefined)?.[0]?.value;
            if (r?.status === 202 && id) ids.push(id);
          }
        }
      })();
      // Watch A's leases and kill it while it holds work in flight.
      const watchUntil = performance.now() + 60_000;
      while (!killedAt && performance.now() < watchUntil) {
        const leased = (await database.query<{ id: string; lease_owner: string }>("select id, lease_owner from submissions where lease_owner is not null")).filter((r) => isA(r.lease_owner));
        if (leased.length >= 2) {
          heldByA = leased.map((r) => r.id);
          signal(a, "SIGKILL");
          killedAt = performance.now();
        } else await sleep(5);
      }
      await a.exited;
      await submitting;
      // From the kill until every row A held is done or leased by B.
      const recovery = heldByA.length
        ? await waitUntil("A's leased work taken over", 60_000, async () =>
            (await database.query<{ lease_owner: string | null; status: string }>("select lease_owner, status from submissions where id = any($1)", [heldByA])).every(
              (r) => (r.lease_owner === null ? r.status !== "queued" : !isA(r.lease_owner)),
            ),
          ).then(() => performance.now() - killedAt)
        : -1;
      const drained = await waitUntil("every claim decided", 120_000, async () => (await count(database, "select count(*)::int as n from submissions where id = any($1) and decided_at is not null", [ids])) === ids.length).catch(() => -1);
      const perKey = platformClaims(sandboxDir);
      const twice = [...perKey.values()].filter((n) => n > 1).length;
      const decided = await count(database, "select count(*)::int as n from submissions where id = any($1) and decided_at is not null", [ids]);
      figures.storedTwice = twice;
      figures.killRecoveryS = Math.round((recovery / 1000) * 10) / 10;
      figures.killHeldLeases = heldByA.length;
      check(
        "exactly-once under kill -9",
        twice === 0 && decided === ids.length && drained >= 0 && heldByA.length > 0 && recovery >= 0,
        `${ids.length} claims accepted; A killed holding ${heldByA.length} leases; B had taken them over after ${(recovery / 1000).toFixed(1)} s (lease 5 s); ${decided} decided; stored twice at the platform: ${twice} of ${perKey.size}`,
      );
    }
  } catch (error) {
    check("scale-out run", false, (error as Error).stack ?? String(error));
    for (const i of instances) log(`${i.name} last lines:\n${i.output.slice(-15).join("\n")}`);
  } finally {
    for (const i of instances) await stopInstance(i).catch(() => undefined);
    if (sandbox) {
      try {
        process.kill(sandbox.process.child.pid!, "SIGTERM");
      } catch {
        // gone
      }
      await Promise.race([sandbox.process.exited, sleep(5_000)]);
    }
    await database.close().catch(() => undefined);
    await throwAway.drop().catch(() => undefined);
    fs.rmSync(work, { recursive: true, force: true });
  }
  figures.totalMs = Math.round(performance.now() - started);
  const failed = checks.filter((c) => !c.ok).length;
  writeResult({ skipped: false });
  log(`${checks.length - failed} of ${checks.length} checks passed in ${(figures.totalMs / 1000).toFixed(0)} s — ${JSON.stringify(figures)}`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
