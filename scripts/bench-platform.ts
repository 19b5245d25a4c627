/**
 * Benchmark of the platform client: how much latency it adds over a bare undici call, and how
 * many TLS handshakes it makes. Starts its own sandbox (temporary folder, port 0, high limits).
 *
 *   npm run bench:platform -- [--n=2000] [--batch=8] [--database-url=postgres://…]
 *
 * Each of N rounds sends one eligibility check through the portal's client (token cache, database
 * rate limiter on an in-memory PGlite, headers, FHIR reader) and one straight to the sandbox with
 * a bare undici request over the same kind of kept-alive mTLS agent; the order alternates every
 * round. Added latency = client − bare, per round. The client's log lines are at "warn" here (a
 * line per call to a terminal would measure the terminal).
 * Targets: added p50 ≤ 1 ms; ≤ 2 TLS handshakes per 1 000 calls. Timing never fails the script.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, buildConnector, request } from "undici";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { createLogger, createPlatformClient } from "@/lib/platform";
import { eligibilityRequest } from "@/lib/platform/testing";
import { startSandbox } from "@/sandbox";

function arg(name: string): string | undefined {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split("=")[1] ?? "true");
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function main() {
  const n = Number(arg("n") ?? 2000);
  const batch = Number(arg("batch") ?? 8);
  const warmup = 100;
  const high = { eligibility: 1_000_000, claims: 1_000_000, status: 1_000_000 };

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-platform-"));
  const sandbox = await startSandbox({ port: 0, dataDir, quiet: true, limits: high, adjudicationDelayMs: 60_000 });
  const databaseUrl = arg("database-url");
  const database = await openDatabase(databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite-memory" });
  await runMigrations(database);
  const creds = sandbox.credentials;
  const config = {
    environment: "sandbox" as const,
    baseUrl: sandbox.url,
    tokenUrl: creds.tokenUrl.replace(/:\d+\//, `:${sandbox.port}/`),
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    tls: { certFile: creds.cert, keyFile: creds.key, caFile: creds.ca },
    providerOrgId: creds.providerOrgId,
  };
  const client = createPlatformClient(config, {
    db: database.db,
    limits: { limits: high, batch },
    logger: createLogger("warn"),
  });

  // The bare side: the same kind of agent (kept-alive mTLS, pipelining 1), counting its handshakes too.
  let bareHandshakes = 0;
  const connector = buildConnector({ ca: fs.readFileSync(creds.ca), cert: fs.readFileSync(creds.cert), key: fs.readFileSync(creds.key) });
  const bareAgent = new Agent({
    pipelining: 1,
    keepAliveTimeout: 30_000,
    connect: (opts, cb) =>
      connector(opts, (err, socket) => {
        if (!err) bareHandshakes++;
        (cb as (e: Error | null, s: typeof socket) => void)(err, socket);
      }),
  });
  const tokenRes = await request(config.tokenUrl, {
    method: "POST",
    dispatcher: bareAgent,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret }).toString(),
  });
  const bareToken = String(((await tokenRes.body.json()) as { access_token: string }).access_token);

  const bare = async () => {
    const res = await request(`${sandbox.url}/CoverageEligibilityRequest`, {
      method: "POST",
      dispatcher: bareAgent,
      headers: {
        authorization: `Bearer ${bareToken}`,
        accept: "application/fhir+json",
        "content-type": "application/fhir+json",
        "x-request-id": crypto.randomUUID(),
      },
      body: JSON.stringify(eligibilityRequest("1000000001", "payer-rimal")),
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`bare call answered ${res.statusCode}`);
  };
  const viaClient = async () => {
    await client.checkEligibility(eligibilityRequest("1000000001", "payer-rimal"));
  };
  const time = async (fn: () => Promise<void>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };

  for (let i = 0; i < warmup; i++) {
    await viaClient();
    await bare();
  }
  const handshakesBefore = client.stats().tlsHandshakes;
  const bareHandshakesBefore = bareHandshakes;

  const added: number[] = [];
  const clientMs: number[] = [];
  const bareMs: number[] = [];
  for (let i = 0; i < n; i++) {
    let c: number;
    let b: number;
    if (i % 2 === 0) {
      c = await time(viaClient);
      b = await time(bare);
    } else {
      b = await time(bare);
      c = await time(viaClient);
    }
    clientMs.push(c);
    bareMs.push(b);
    added.push(c - b);
  }
  const handshakes = client.stats().tlsHandshakes - handshakesBefore;
  const bareHs = bareHandshakes - bareHandshakesBefore;

  const sort = (a: number[]) => [...a].sort((x, y) => x - y);
  const [sAdded, sClient, sBare] = [sort(added), sort(clientMs), sort(bareMs)];
  const perThousand = (handshakes * 1000) / n;
  const p50 = percentile(sAdded, 50);

  console.log(`platform client benchmark — ${n} eligibility checks each way, alternating (after ${warmup} warm-up rounds)`);
  console.log(`rate limiter: database (${databaseUrl ? "PostgreSQL" : "in-memory PGlite"}), one permit per call, up to ${batch} per round trip (--batch=N)`);
  console.log(`bare undici:  p50 ${fmt(percentile(sBare, 50))}  p99 ${fmt(percentile(sBare, 99))}`);
  console.log(`client:       p50 ${fmt(percentile(sClient, 50))}  p99 ${fmt(percentile(sClient, 99))}`);
  console.log(`added:        p50 ${fmt(p50)}  p99 ${fmt(percentile(sAdded, 99))}  (per round: client − bare)`);
  console.log(
    `TLS handshakes during the ${n} measured calls: client ${handshakes} (${perThousand.toFixed(2)} per 1 000 calls), bare ${bareHs}; ` +
      `client total incl. warm-up ${client.stats().tlsHandshakes}; token requests ${client.stats().tokenRequests}`,
  );
  console.log(`target added p50 ≤ 1 ms: ${p50 <= 1 ? "met" : "NOT met"}`);
  console.log(`target ≤ 2 handshakes per 1 000 calls: ${perThousand <= 2 ? "met" : "NOT met"}`);

  await client.close();
  await bareAgent.close();
  if (databaseUrl) await database.query("delete from platform_rate_permits");
  await database.close();
  await sandbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
