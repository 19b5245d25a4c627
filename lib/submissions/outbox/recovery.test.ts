import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { and, inArray, like, sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { submissionEvents, submissions } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { heartbeatMs } from "@/lib/submissions";
import { startOutboxWorker, type OutboxWorker } from "./worker";
import { submit } from "@/lib/submissions";
import { buildClaim, startTestSandbox, testClient, waitFor } from "@/lib/pipeline/testing/harness";

const DECIDED = ["complete", "partial", "denied"];
const LEASE_MS = 15_000;
const postgres = testDatabases().find((t) => t.name === "postgres");

// Two instances on one database need PostgreSQL (PGlite is one process per data dir).
describe.skipIf(!postgres)("crash recovery: a 15 s lease renewed every 5 s", () => {
  const cleanups: (() => Promise<void>)[] = [];
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child = undefined;
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it("a live worker's leases are renewed; after kill -9 another instance sends its claims within one lease", async () => {
    expect(heartbeatMs(LEASE_MS)).toBe(5_000);
    const database = await postgres!.open();
    const sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    const client = testClient(database.db, sb.config);
    cleanups.push(async () => {
      await client.close();
      await sb.close();
      await database.dispose();
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", patientId: "1000000001", items: [{ code: "36415", price: 15 }] }) })).id);
    }
    // Slow answers (token and claim 4 s each) keep the child's work in flight past a heartbeat.
    await sb.setFaults({ latencyMs: 4_000 });

    child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "testing", "worker-child.ts")], {
      cwd: path.resolve(__dirname, "..", "..", ".."),
      env: { ...process.env, CX_DATABASE_URL: database.url, CX_PLATFORM_CONFIG: JSON.stringify(sb.config), CX_LEASE_MS: String(LEASE_MS), CX_CONCURRENCY: "4", CX_POLL_AFTER_MS: "60000" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const leased = await waitFor(async () => {
      if (child!.exitCode !== null) throw new Error(`child exited: ${stderr}`);
      const rows = await database.db.select({ owner: submissions.leaseOwner, until: submissions.leaseUntil }).from(submissions).where(inArray(submissions.id, ids));
      return rows.every((r) => r.owner?.startsWith("child-")) ? rows : undefined;
    }, 60_000, "the child to lease every claim");
    const firstUntil = Math.max(...leased.map((r) => r.until!.getTime()));

    // The heartbeat: after more than 5 s the leases reach further than when they were taken.
    const renewed = await waitFor(async () => {
      const rows = await database.db.select({ until: submissions.leaseUntil, owner: submissions.leaseOwner }).from(submissions).where(inArray(submissions.id, ids));
      const held = rows.filter((r) => r.owner?.startsWith("child-"));
      return held.length > 0 && held.every((r) => r.until!.getTime() > firstUntil) ? held : undefined;
    }, 20_000, "the child's heartbeat to renew its leases");
    expect(renewed.length).toBeGreaterThan(0);

    // A second portal instance, already running when the first one dies.
    const survivor: OutboxWorker = startOutboxWorker({
      db: database.db,
      client,
      owner: "survivor",
      pollMs: 200,
      leaseMs: LEASE_MS,
      maxAttempts: 10,
      backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 },
      pollAfterMs: 500,
      concurrency: 8,
      log: () => {},
    });
    child.kill("SIGKILL");
    const killedAt = Date.now();
    await new Promise<void>((resolve) => child!.once("exit", () => resolve()));
    await sb.setFaults({});
    const orphaned = await database.db
      .select({ id: submissions.id, until: submissions.leaseUntil })
      .from(submissions)
      .where(and(inArray(submissions.id, ids), like(submissions.leaseOwner, "child-%"), inArray(submissions.status, ["queued", "sent", "pended"])));

    try {
      await waitFor(async () => {
        const rows = await database.db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        return rows.every((r) => DECIDED.includes(r.status));
      }, 90_000, "every claim decided after the crash");
    } finally {
      await survivor.stop();
    }

    // When the survivor first took each of the dead worker's rows (its attempt, or its follow-up lease).
    const taken = await database.db
      .select({ submissionId: submissionEvents.submissionId, at: sql<Date>`min(${submissionEvents.at})` })
      .from(submissionEvents)
      .where(and(inArray(submissionEvents.submissionId, orphaned.map((o) => o.id)), sql`${submissionEvents.detail}->>'worker' = 'survivor'`))
      .groupBy(submissionEvents.submissionId);
    const delays = taken.map((t) => new Date(t.at).getTime() - killedAt);
    const counts = await sb.identifierCounts();
    const rows = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
    console.log(
      `[recovery] lease ${LEASE_MS / 1000} s, heartbeat ${heartbeatMs(LEASE_MS) / 1000} s: ${orphaned.length} claims held by the killed worker; ` +
        `another instance sent them ${delays.map((d) => `${(d / 1000).toFixed(1)} s`).join(", ")} after kill -9`,
    );
    expect(orphaned.length).toBeGreaterThan(0);
    expect(taken.length).toBe(orphaned.length);
    for (const d of delays) expect(d).toBeLessThanOrEqual(LEASE_MS + 5_000);
    for (const row of rows) expect(counts.claims.get(row.identifierValue!)).toBe(1);
  }, 180_000);
});
