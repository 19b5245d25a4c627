import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient } from "@/lib/platform";
import { getSubmission, getSubmissionView, submit } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { startPipeline } from "./index";
import { startOutboxWorker } from "@/lib/submissions";
import { buildClaim, newWebhookSecret, startTestSandbox, startWebhookRelay, testClient, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "./testing/harness";

/*
 * One parse per answer (docs/decisions/078): every call of the ClaimResponse reader is counted,
 * keyed by the answer it read. From the platform's answer to the page that shows the decision —
 * the port, applyPlatformNews, the stored row and the detail page's view (getSubmissionView) —
 * the decided answer is read exactly once, in both protocols: REST (the webhook fetches the
 * adjudication) and messaging (the poll loop brings it).
 */
const reads = vi.hoisted(() => {
  // An answer's key: its JSON with keys in order (the database hands JSON back with its own order).
  const canonical = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(canonical) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)])) : value;
  return { byAnswer: new Map<string, number>(), key: (json: unknown) => JSON.stringify(canonical(json)) };
});
vi.mock("@/lib/fhir/read/claim-response", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/fhir/read/claim-response")>();
  return {
    ...original,
    readClaimResponse(json: unknown) {
      const key = reads.key(json);
      reads.byAnswer.set(key, (reads.byAnswer.get(key) ?? 0) + 1);
      return original.readClaimResponse(json);
    },
  };
});

const DECIDED = ["complete", "partial", "denied"];
const quiet = () => {};

/** How many times the answer stored on the row was read, and the most any answer was read. */
function readsOf(stored: unknown): { decided: number; most: number } {
  return { decided: reads.byAnswer.get(reads.key(stored)) ?? 0, most: Math.max(0, ...reads.byAnswer.values()) };
}

describe.each(testDatabases())("one parse per answer on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  describe("REST: webhook → apply → screen", () => {
    let sb: SandboxHandle;
    let client: PlatformClient;
    let relay: WebhookRelay;
    const secret = newWebhookSecret();

    beforeAll(async () => {
      const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
      relay = await startWebhookRelay(relayDeps);
      sb = await startTestSandbox({ webhookUrl: relay.url, webhookSecret: secret, webhookRetry: { baseDelayMs: 100, maxDelayMs: 500, maxAttempts: 4, timeoutMs: 5000 }, adjudicationDelayMs: 50 });
      client = testClient(database.db, sb.config);
      relayDeps.client = client;
    });
    afterAll(async () => {
      await client?.close();
      await sb?.close();
      await relay?.close();
    });

    it("the decided ClaimResponse is read once, by the port", async () => {
      reads.byAnswer.clear();
      const worker = startOutboxWorker({ db: database.db, client, pollMs: 30, leaseMs: 30_000, maxAttempts: 3, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 }, pollAfterMs: 60_000, log: quiet });
      try {
        const s = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "99213", price: 250 }, { code: "85025", price: 60 }] }), channel: "ui" });
        const done = await waitFor(async () => {
          const row = await getSubmission(database.db, s.id);
          return row && DECIDED.includes(row.status) ? row : undefined;
        }, 60_000, "the claim decided by webhook");
        // The screen: the claim's page reads its view (twice, as a page and its live refresh would).
        const view = await getSubmissionView(database.db, s.id, "claim");
        await getSubmissionView(database.db, s.id, "claim");
        expect(view?.decision?.decision).toBe(done.responseView?.decision);
        expect(view?.decision?.lines.length).toBe(2);
        const counted = readsOf(done.response);
        console.info(`[one-parse] REST: the decided answer was read ${counted.decided} time(s); ${reads.byAnswer.size} answer(s) read in all, none more than ${counted.most} time(s)`);
        expect(counted.decided).toBe(1);
        expect(counted.most).toBe(1);
      } finally {
        await worker.stop();
      }
    }, 90_000);
  });

  describe("messaging: poll → apply → screen", () => {
    let sb: SandboxHandle;
    let client: PlatformClient;

    beforeAll(async () => {
      sb = await startTestSandbox({ adjudicationDelayMs: 50 });
      client = createPlatformClient({ ...sb.config, protocol: "messaging", providerLicense: "PR-CLINIC-001" }, { db: database.db, tlsCheckIntervalMs: 60_000 });
    });
    afterAll(async () => {
      await client?.close();
      await sb?.close();
    });

    it("the decided ClaimResponse a poll brings is read once, by the inbound handler", async () => {
      reads.byAnswer.clear();
      const services = startPipeline({
        db: database.db,
        client: portFor(client, database.db),
        // No silence follow-up during the test: the decision comes by the poll loop alone.
        config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 5, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 60_000, concurrency: 4, messagePollMs: 100, batchSize: 1 },
        log: quiet,
      });
      try {
        const s = await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 }] }) });
        const done = await waitFor(async () => {
          const row = await getSubmission(database.db, s.id);
          return row && DECIDED.includes(row.status) ? row : undefined;
        }, 30_000, "the claim decided through the poll loop");
        const view = await getSubmissionView(database.db, s.id, "claim");
        await getSubmissionView(database.db, s.id, "claim");
        expect(view?.decision?.decision).toBe(done.responseView?.decision);
        const counted = readsOf(done.response);
        console.info(`[one-parse] messaging: the decided answer was read ${counted.decided} time(s); ${reads.byAnswer.size} answer(s) read in all, none more than ${counted.most} time(s)`);
        expect(counted.decided).toBe(1);
        expect(counted.most).toBe(1);
      } finally {
        await services.stop();
      }
    }, 60_000);
  });
});
