/**
 * A batch of claims in the messaging protocol, end to end: the portal's outbox sends the claims
 * in batch-requests (≤ 200 claims of one insurer each; every claim answered `queued` inside the
 * batch-response), the sandbox adjudicates them, and the poll loop drains the waiting answers —
 * polling again at once while a reply carries the `queued-messages` tag. Prints the messages sent
 * by event (as the sandbox counted them), polls, drain polls and time.
 *
 *   node --import tsx scripts/messaging-batch.ts [--n=200] [--poll-ms=600000] [--settle-ms=3000]
 *
 * By default the poll loop's interval is long, so the answers pile up at the exchange while the
 * outbox sends; once everything is sent (and `settle-ms` later, adjudicated) the loop is woken
 * once and must drain the pile by itself: 100 messages per poll, again at once while the reply
 * says `queued-messages`. `--poll-ms=3000` shows the steady state instead.
 *
 * Own sandbox (temporary folder, port 0) and in-memory PGlite; nothing else is touched.
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "@/lib/server/testing/owner-reads";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, runMigrations } from "@/lib/db";
import { startPipeline } from "@/lib/pipeline";
import { sentClaimReads, submit } from "@/lib/submissions";
import { seedDemoPatients } from "@/lib/patients";
import { createLogger, createPlatformClient, portFor } from "@/lib/platform";
import { claimFixture } from "@/lib/platform/testing";
import { startTestSandbox } from "@/lib/pipeline/testing/harness";
import { statusesOf } from "@/lib/submissions";

function arg(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split("=")[1]) : fallback;
}

const DECIDED = ["complete", "partial", "denied", "rejected", "failed"];
const PATIENTS = ["1000000001", "1000000002", "1048573628"];

async function main() {
  const n = arg("n", 200);
  const pollMs = arg("poll-ms", 600_000);
  const settleMs = arg("settle-ms", 3000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "messaging-batch-"));
  // The tests' sandbox harness: a sandbox on a free port and the portal's client configuration for it.
  const sandbox = await startTestSandbox({ dataDir, adjudicationDelayMs: 200 });
  const database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  await seedDemoPatients(database.db);
  const client = createPlatformClient(
    { ...sandbox.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" },
    { db: database.db, logger: createLogger("warn") },
  );
  const port = portFor(client, database.db, sentClaimReads(database.db));

  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const patientId = PATIENTS[i % PATIENTS.length]!;
    const { identifier: _none, ...claim } = claimFixture({ use: "claim", patientId, items: [{ code: "85025", price: 60 + (i % 5) * 500 }] });
    void _none;
    ids.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: patientId, claim: { ...claim }, channel: "api" })).id);
  }
  const counted = async () => ((await sandbox.admin("GET", "/_admin/facilities")).body.facilities as { code: string; byKind: Record<string, number> }[]).find((f) => f.code === "main")!.byKind;
  const sentBefore = await counted();
  const started = performance.now();
  const services = startPipeline({ db: database.db, client: port, config: { pollMs: 25, concurrency: 16, messagePollMs: pollMs, pollAfterMs: 120_000 }, log: () => {} });
  let sentAt = 0;
  let drainStart = 0;
  let before = services.messagePoller!.stats();
  for (;;) {
    const rows = await statusesOf(database.db, ids);
    if (!sentAt && rows.every((r) => r.status !== "queued")) {
      sentAt = performance.now();
      await new Promise((r) => setTimeout(r, settleMs));
      before = services.messagePoller!.stats();
      drainStart = performance.now();
      services.messagePoller!.wake();
    }
    if (rows.every((r) => DECIDED.includes(r.status))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - started;
  const drainMs = performance.now() - drainStart;
  const stats = services.messagePoller!.stats();
  await services.stop();
  const sentAfter = await counted();
  const rows = await statusesOf(database.db, ids);
  const byStatus = new Map<string, number>();
  for (const r of rows) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  const sent = Object.entries(sentAfter)
    .map(([event, k]) => [event, k - (sentBefore[event] ?? 0)] as const)
    .filter(([, k]) => k > 0)
    .map(([event, k]) => `${event} ${k}`)
    .join(", ");
  console.log(`claims: ${n} (messaging protocol; the insurers of ${PATIENTS.length} patients)`);
  console.log(`messages the exchange received: ${sent}`);
  console.log(`all sent (outbox) after: ${(sentAt - started).toFixed(0)} ms`);
  console.log(`all decided after: ${ms.toFixed(0)} ms`);
  console.log(`drain after waking the poll loop once (${settleMs} ms after the last send): ${drainMs.toFixed(0)} ms`);
  console.log(`  poll-requests: ${stats.polls - before.polls}, of which sent at once because of queued-messages: ${stats.drainPolls - before.drainPolls}`);
  console.log(`  messages: ${stats.messages - before.messages} (applied ${stats.applied - before.applied}, unrouted ${stats.unrouted - before.unrouted})`);
  console.log(`whole run: ${stats.polls} poll-requests, ${stats.messages} messages`);
  console.log(`final states: ${[...byStatus].map(([s, k]) => `${s} ${k}`).join(", ")}`);
  await client.close();
  await sandbox.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
