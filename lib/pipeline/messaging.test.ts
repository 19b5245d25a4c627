import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { submissionEvents, submissions } from "@/lib/db/schema";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { startPipeline } from "./index";
import { submit } from "@/lib/submissions";
import { buildClaim, startTestSandbox, waitFor, type SandboxHandle } from "./testing/harness";

/**
 * The submission pipeline in the messaging protocol (docs/decisions/034): the same outbox and apply, with
 * FHIR messages to $process-message and no webhooks — late answers come through the poll loop.
 */
const DECIDED = ["complete", "partial", "denied"];
const PATIENTS = ["1000000001", "1000000002", "1048573628"];

describe.each(testDatabases())("submission pipeline in the messaging protocol on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let port: PlatformPort;

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    sb = await startTestSandbox({ adjudicationDelayMs: 50 });
    client = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    port = portFor(client, database.db);
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const services = () =>
    startPipeline({
      db: database.db,
      client: port,
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 25, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 8, messagePollMs: 100 },
      log: () => {},
    });

  it("authorization decided in the reply; claim queued, then decided through the poll loop (source poll)", async () => {
    const s = services();
    expect(s.messagePoller).toBeDefined();
    try {
      const auth = await submit({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });
      const claim = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 }] }) });
      for (const id of [auth.id, claim.id]) {
        await waitFor(async () => {
          const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
          return row && DECIDED.includes(row.status) ? row : undefined;
        }, 30_000, `submission ${id} decided`);
      }
      const events = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, claim.id));
      const decided = events.find((e) => DECIDED.includes(e.toStatus));
      expect(decided?.source).toBe("poll");
      const authEvents = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
      expect(authEvents.find((e) => DECIDED.includes(e.toStatus))?.source).toBe("platform");
      // The poller counts a message once its handler has finished (the audit entry comes after the commit).
      await waitFor(async () => s.messagePoller!.stats().applied > 0, 15_000, "the poller counting what it applied");
    } finally {
      await s.stop();
    }
  }, 60_000);

  it("a day's claims leave as batch-requests (one facility, one insurer, ≤ the batch size), each decided through the poll loop", async () => {
    const counts = async () => {
      const { body } = await sb.admin("GET", "/_admin/facilities");
      return (body.facilities as { code: string; byKind: Record<string, number> }[]).find((f) => f.code === "main")!.byKind;
    };
    const before = await counts();
    // 25 claims for one patient's insurer, one with a code the payer does not know.
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const diagnoses = i === 7 ? ["ZZZ.9"] : undefined;
      ids.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 + i }], ...(diagnoses ? { diagnoses } : {}) }) })).id);
    }
    const s = startPipeline({
      db: database.db,
      client: port,
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 5, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 2_000, concurrency: 8, messagePollMs: 100, batchSize: 10 },
      log: () => {},
    });
    try {
      await waitFor(async () => {
        const rows = await database.db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        return rows.every((r) => [...DECIDED, "rejected"].includes(r.status));
      }, 60_000, "every claim decided or refused");
    } finally {
      await s.stop();
    }
    const rows = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
    const refused = rows.filter((r) => r.status === "rejected");
    expect(refused.map((r) => r.id)).toEqual([ids[7]]);
    expect(refused[0]!.errors?.[0]).toMatchObject({ code: "ERR-003", field: "Claim.diagnosis[0]" });
    const after = await counts();
    const grown = (kind: string) => (after[kind] ?? 0) - (before[kind] ?? 0);
    expect(grown("batch-request")).toBe(3);
    expect(grown("claim-request")).toBe(0);
    const decidedBy = await database.db.select().from(submissionEvents).where(inArray(submissionEvents.submissionId, ids));
    expect(decidedBy.filter((e) => DECIDED.includes(e.toStatus)).every((e) => e.source === "poll")).toBe(true);
  }, 90_000);

  it("40 submissions through 5xx, dropped connections and lost answers: all decided, each held once, no ERR-005", async () => {
    // Claims travel in batch-requests (few requests), so answers are lost often enough that repeats surely happen.
    await sb.setFaults({ errorRate: 0.3, errorStatus: 503, retryAfterSeconds: 0, dropRate: 0.1, dropAfterProcessingRate: 0.3, latencyMs: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const use = i % 2 === 0 ? "preauthorization" : "claim";
      const patientId = PATIENTS[i % PATIENTS.length]!;
      const items = use === "claim" ? [{ code: "85025", price: 60 }] : [{ code: "70553", price: 2500 }];
      ids.push((await submit({ db: database.db }, { kind: use, patientNationalId: patientId, claim: buildClaim({ use, patientId, items }) })).id);
    }
    const s = services();
    try {
      await waitFor(async () => {
        const rows = await database.db.select({ status: submissions.status }).from(submissions).where(inArray(submissions.id, ids));
        return rows.every((r) => DECIDED.includes(r.status));
      }, 150_000, "every submission decided");
    } finally {
      await s.stop();
      await sb.setFaults({});
    }
    const rows = await database.db.select().from(submissions).where(inArray(submissions.id, ids));
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(row.response).not.toBeNull();
    const counts = await sb.identifierCounts();
    for (const row of rows) expect(counts.claims.get(row.identifierValue!)).toBe(1);
    // Repeats happened (lost answers) and were answered with the stored reply: nothing to reconcile.
    expect([...counts.receipts.values()].some((n) => n > 1)).toBe(true);
    const events = await database.db.select().from(submissionEvents).where(inArray(submissionEvents.submissionId, ids));
    expect(events.filter((e) => (e.detail as { reconciled?: boolean } | null)?.reconciled)).toHaveLength(0);
  }, 240_000);
});
