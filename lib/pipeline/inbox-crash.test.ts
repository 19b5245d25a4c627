import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { inboxMessages, inboxPolls, submissionEvents, submissions } from "@/lib/db/schema";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor } from "@/lib/platform";
import { submit } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { startOutboxWorker } from "@/lib/submissions";
import { buildClaim, startTestSandbox, waitFor } from "./testing/harness";

const DECIDED = ["complete", "partial", "denied"];
const postgres = testDatabases().find((t) => t.name === "postgres");
const N = Number(process.env.CX_INBOX_FAULT_MESSAGES ?? 40);
const KILLS = Number(process.env.CX_INBOX_FAULT_KILLS ?? 12);

/**
 * The inbox's fault run (docs/decisions/096): N decisions wait at the exchange for the clinic's poll; a poller in a child
 * process (nothing else can bring them in: no outbox follow-up runs) is killed with SIGKILL at
 * random moments — between a poll-request and its reply, between the reply and the store, during
 * routing and applying, before the next poll-request — and started again, KILLS times, then left
 * to finish. Stored = delivered, every decision applied exactly once, none lost.
 * PostgreSQL only (the child and this process share the database).
 */
describe.skipIf(!postgres)("inbox on PostgreSQL: a poller killed with SIGKILL at random points", () => {
  const cleanups: (() => Promise<void>)[] = [];
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it(`${N} messages delivered by poll, ${KILLS} kills: stored = delivered, applied exactly once, 0 lost`, async () => {
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
    const db = database.db;

    // N claims sent (outbox only, no poll loop) and adjudicated: their decisions wait to be polled.
    const ids: string[] = [];
    for (let i = 0; i < N; i++) ids.push((await submit({ db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 + (i % 40) }] }) })).id);
    const worker = startOutboxWorker({ db, client: portFor(client, db), pollMs: 25, leaseMs: 10_000, maxAttempts: 25, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 3_600_000, concurrency: 8, batchSize: 1, log: () => {} });
    await waitFor(
      async () => {
        const rows = await db.select({ status: submissions.status, n: sql<number>`count(*)::int` }).from(submissions).where(inArray(submissions.id, ids)).groupBy(submissions.status);
        if (rows.some((r) => r.status === "failed" || r.status === "rejected")) throw new Error(`claims refused: ${JSON.stringify(rows)}`);
        return rows.length === 1 && rows[0]!.status === "sent";
      },
      300_000,
      "every claim sent",
    );
    await worker.stop();
    await waitFor(async () => {
      const { body } = await sb.admin("GET", "/_admin/claims");
      return (body.claims as { status: string }[]).filter((c) => DECIDED.includes(c.status)).length >= N;
    }, 60_000, "the exchange deciding every claim");
    await sb.setFaults({ latencyMs: 10 });

    const POINTS = ["replied", "stored", "applied"] as const;
    const landed: Record<string, number> = { replied: 0, stored: 0, applied: 0, timer: 0 };
    const spawnChild = (fault?: { point: string; after: number }) => {
      const c = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "testing", "poller-child.ts")], {
        cwd: path.resolve(__dirname, "..", ".."),
        env: { ...process.env, CX_DATABASE_URL: database.url, CX_PLATFORM_CONFIG: JSON.stringify(config), CX_POLL_COUNT: "3", CX_INBOX_LEASE_MS: "400", ...(fault ? { CX_FAULT_POINT: fault.point, CX_FAULT_AFTER: String(fault.after) } : {}) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      let out = "";
      c.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      const ready = new Promise<void>((resolve, reject) => {
        c.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("ready")) resolve();
        });
        c.once("exit", () => (out.includes("ready") ? resolve() : reject(new Error(`child exited: ${err}`))));
      });
      return { c, ready, output: () => out };
    };
    const moments = { pollInFlight: 0, storedNotRouted: 0, killed: 0 };
    for (let k = 0; k < KILLS; k++) {
      // Each round: the child dies at a random occurrence of one of the three points, or at a random
      // moment (our SIGKILL after 0.5–6 s), whichever comes first.
      const point = POINTS[k % POINTS.length]!;
      const { c, ready, output } = spawnChild({ point, after: 1 + Math.floor(Math.random() * 4) });
      child = c;
      await ready;
      const exited = new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once("exit", () => resolve())));
      const timer = setTimeout(() => c.kill("SIGKILL"), 500 + Math.floor(Math.random() * 5500));
      await exited;
      clearTimeout(timer);
      const at = /fault (\w+)/.exec(output())?.[1] ?? "timer";
      landed[at] = (landed[at] ?? 0) + 1;
      moments.killed++;
      // Where the kill landed (what the dead process left behind).
      if ((await db.select().from(inboxPolls)).length > 0) moments.pollInFlight++;
      if ((await db.select({ id: inboxMessages.id }).from(inboxMessages).where(eq(inboxMessages.status, "received"))).length > 0) moments.storedNotRouted++;
    }
    const last = spawnChild();
    child = last.c;
    await last.ready;
    try {
      await waitFor(async () => {
        const rows = await db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        const open = await db.select({ id: inboxMessages.id }).from(inboxMessages).where(inArray(inboxMessages.status, ["received"]));
        return rows.every((r) => DECIDED.includes(r.status)) && open.length === 0;
      }, 240_000, "every decision applied after the kills");
    } finally {
      last.c.kill("SIGKILL");
      await sb.setFaults({});
    }

    const stored = await db.select().from(inboxMessages).where(eq(inboxMessages.source, "poll"));
    const events = await db.select().from(submissionEvents).where(inArray(submissionEvents.submissionId, ids));
    const decisionsPer = new Map<string, number>();
    for (const e of events) if (DECIDED.includes(e.toStatus)) decisionsPer.set(e.submissionId, (decisionsPer.get(e.submissionId) ?? 0) + 1);
    const appliedOnce = ids.filter((id) => decisionsPer.get(id) === 1).length;
    const lost = ids.filter((id) => !decisionsPer.has(id)).length;
    const claimMessages = stored.filter((r) => r.event === "claim-response");
    console.log(
      `[inbox fault run] delivered ${N} decisions by poll; kills ${moments.killed} (after a reply before its store ${landed.replied}, after the store before routing ${landed.stored}, after an apply before it was settled ${landed.applied}, at a random moment ${landed.timer}; left a poll-request unretired ${moments.pollInFlight}, left stored-not-routed rows ${moments.storedNotRouted}); ` +
        `stored ${claimMessages.length} claim-response messages (${stored.length} poll rows); applied exactly once ${appliedOnce}/${N}; lost ${lost}; duplicates ${[...decisionsPer.values()].filter((n) => n > 1).length}`,
    );
    expect(claimMessages).toHaveLength(N);
    expect(new Set(claimMessages.map((r) => r.messageId)).size).toBe(N);
    expect(claimMessages.every((r) => r.status === "applied")).toBe(true);
    expect(appliedOnce).toBe(N);
    expect(lost).toBe(0);
    // Every decision came in through the inbox (a poll), none by a follow-up of the outbox.
    expect(events.filter((e) => DECIDED.includes(e.toStatus)).every((e) => e.source === "poll")).toBe(true);
  }, 600_000);
});
