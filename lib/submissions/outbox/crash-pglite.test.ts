import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { submissionEvents, submissions } from "@/lib/db/schema";
import { startOutboxWorker } from "./worker";
import { submit } from "@/lib/submissions";
import { buildClaim, startTestSandbox, tempDir, testClient, waitFor, type SandboxHandle } from "@/lib/pipeline/testing/harness";

const DECIDED = ["complete", "partial", "denied"];

// PGlite allows one process per data dir: the child worker owns it until it is killed, then this
// process re-opens the same files (crash recovery) and a new worker finishes the batch. Webhooks
// are not delivered here (no process may open the database meanwhile): the poller catches up.
describe("outbox on a PGlite data dir: a worker killed with SIGKILL", () => {
  const dir = tempDir("cx-pglite-crash-");
  let sb: SandboxHandle | undefined;
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    await sb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("mid-batch of 200: re-opened, a new worker decides every claim, each held by the sandbox once", async () => {
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    database = await openDatabase({ kind: "pglite", dataDir: dir });
    await runMigrations(database);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const use = i % 2 === 0 ? "preauthorization" : "claim";
      const patientId = i % 3 === 0 ? "2087654311" : "1000000001";
      const items = use === "claim" ? [{ code: "36415", price: 15 }] : [{ code: "72148", price: 2000 }];
      ids.push((await submit({ db: database.db }, { kind: use, patientNationalId: patientId, claim: buildClaim({ use, patientId, items }) })).id);
    }
    await database.close();
    database = undefined;
    await sb.setFaults({ latencyMs: 15, dropAfterProcessingRate: 0.05 });

    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "testing", "worker-child.ts")], {
      cwd: path.resolve(__dirname, "..", "..", ".."),
      env: { ...process.env, CX_PGLITE_DIR: dir, CX_PLATFORM_CONFIG: JSON.stringify(sb.config), CX_LEASE_MS: "1500", CX_CONCURRENCY: "4", CX_POLL_AFTER_MS: "1000" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
      await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`child exited: ${stderr}`);
        return (await sb!.identifierCounts()).receipts.size >= 50;
      }, 120_000, "the child to send 50 claims");
    } finally {
      child.kill("SIGKILL");
      if (child.exitCode === null && child.signalCode === null) await new Promise<void>((resolve) => child.once("exit", () => resolve()));
    }
    expect((await sb.identifierCounts()).receipts.size).toBeLessThan(200);

    database = await openDatabase({ kind: "pglite", dataDir: dir });
    const client = testClient(database.db, sb.config);
    const worker = startOutboxWorker({
      db: database.db,
      client,
      owner: "survivor",
      pollMs: 25,
      leaseMs: 1500,
      maxAttempts: 25,
      backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 },
      pollAfterMs: 300,
      concurrency: 8,
      log: () => {},
    });
    try {
      const db = database.db;
      await waitFor(async () => {
        const rows = await db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        return rows.every((r) => DECIDED.includes(r.status));
      }, 200_000, "every claim decided after the crash");
    } finally {
      await worker.stop();
      await client.close();
      await sb.setFaults({});
    }
    const rows = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
    const counts = await sb.identifierCounts();
    expect(counts.claims.size).toBe(200);
    for (const row of rows) {
      expect(counts.claims.get(row.identifierValue!)).toBe(1);
      expect(row.response).not.toBeNull();
    }
    const events = await database.db.select().from(submissionEvents).where(inArray(submissionEvents.submissionId, ids));
    expect(events.some((e) => (e.detail as { reconciled?: boolean } | null)?.reconciled)).toBe(true);
  }, 420_000);
});
