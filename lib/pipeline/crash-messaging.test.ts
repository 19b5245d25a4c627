import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { submissionEvents, submissions } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor } from "@/lib/platform";
import { startPipeline, type PipelineServices } from "./index";
import { submit } from "@/lib/submissions";
import { buildClaim, startTestSandbox, waitFor } from "./testing/harness";

const DECIDED = ["complete", "partial", "denied"];
const postgres = testDatabases().find((t) => t.name === "postgres");

// The messaging crash: the outbox's worker child (lib/submissions/outbox/testing/worker-child.ts)
// killed mid-batch, then the whole pipeline (the worker and the poll loop that brings the
// decisions) finishes the work. PostgreSQL only, as the outbox's own crash tests (crash.test.ts
// beside the worker).
describe.skipIf(!postgres)("pipeline on PostgreSQL: a crashed worker, messaging", () => {
  const cleanups: (() => Promise<void>)[] = [];
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child = undefined;
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it("messaging: a worker killed with SIGKILL mid-batch of 200 — every claim decided through the poll loop, each held once, none reconciled", async () => {
    const database = await postgres!.open();
    await seedDemoPatients(database.db);
    const sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    const config = { ...sb.config, protocol: "messaging" as const, providerLicense: "PR-CLINIC-001" };
    const client = createPlatformClient(config, { db: database.db, tlsCheckIntervalMs: 60_000 });
    cleanups.push(async () => {
      await client.close();
      await sb.close();
      await database.dispose();
    });
    const patients = ["1000000001", "1000000002", "1048573628"];
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const use = i % 2 === 0 ? "preauthorization" : "claim";
      const patientId = patients[i % patients.length]!;
      const items = use === "claim" ? [{ code: "36415", price: 15 }] : [{ code: "72148", price: 2000 }];
      ids.push((await submit({ db: database.db }, { kind: use, patientNationalId: patientId, claim: buildClaim({ use, patientId, items }) })).id);
    }
    await sb.setFaults({ latencyMs: 15, dropAfterProcessingRate: 0.05 });
    child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "..", "submissions", "outbox", "testing", "worker-child.ts")], {
      cwd: path.resolve(__dirname, "..", ".."),
      env: { ...process.env, CX_DATABASE_URL: database.url, CX_PLATFORM_CONFIG: JSON.stringify(config), CX_LEASE_MS: "1500", CX_CONCURRENCY: "4", CX_POLL_AFTER_MS: "1000" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    await waitFor(async () => {
      const counts = await sb.identifierCounts();
      if (child!.exitCode !== null) throw new Error(`child exited: ${stderr}`);
      return counts.receipts.size >= 50;
    }, 120_000, "the child to send 50 claims");
    child.kill("SIGKILL");
    await new Promise<void>((resolve) => child!.once("exit", () => resolve()));
    const midway = await database.db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
    expect(midway.filter((r) => r.status === "queued").length).toBeGreaterThan(50);

    let services: PipelineServices | undefined;
    try {
      services = startPipeline({
        db: database.db,
        client: portFor(client, database.db),
        config: { pollMs: 25, leaseMs: 1500, maxAttempts: 25, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 1000, concurrency: 8, messagePollMs: 200 },
        log: () => {},
      });
      await waitFor(async () => {
        const rows = await database.db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        return rows.every((r) => DECIDED.includes(r.status));
      }, 120_000, "every claim decided after the crash");
    } finally {
      await services?.stop();
      await sb.setFaults({});
    }
    const rows = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
    const counts = await sb.identifierCounts();
    for (const row of rows) {
      expect(counts.claims.get(row.identifierValue!)).toBe(1);
      expect(row.response).not.toBeNull();
    }
    expect(counts.claims.size).toBe(200);
    const events = await database.db.select().from(submissionEvents).where(inArray(submissionEvents.submissionId, ids));
    expect(events.some((e) => (e.detail as { reconciled?: boolean } | null)?.reconciled)).toBe(false);
  }, 180_000);
});
