import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxMessages, submissionEvents, submissions } from "@/lib/db/schema";
import { dismissMessage, listOpenMessages, refreshInboxGauge, storeMessages } from "@/lib/inbox";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient, type PlatformPort } from "@/lib/platform";
import { submit } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { PIPELINE_INBOUND } from "./inbound";
import { routeInboxMessage } from "./inbox-route";
import { startPipeline } from "./index";
import { buildClaim, newWebhookSecret, startTestSandbox, startWebhookRelay, testClient, waitFor, type RelayDeps, type SandboxHandle, type WebhookRelay } from "./testing/harness";

/**
 * Decision 096 — nothing the exchange sends is lost: every polled message stored whole before it is
 * routed (a malformed one among good ones costs the others nothing), what matches nothing kept and
 * listed, a payer's reissued decision applied with the earlier one kept, idempotent by message id.
 */
const DECIDED = ["complete", "partial", "denied"];
const quiet = () => {};

/** A message Bundle no R4 reader accepts (a timestamp that is a number, an entry without a header). */
const malformed = () => ({ resourceType: "Bundle", id: randomUUID(), type: "message", timestamp: 20260101, entry: [{ resource: { resourceType: "ClaimResponse", status: 7 } }] });

async function sandboxClaimId(sb: SandboxHandle, identifierValue: string): Promise<string> {
  const { body } = await sb.admin("GET", "/_admin/claims");
  const claim = (body.claims as { id: string; identifier: string }[]).find((c) => c.identifier === identifierValue);
  if (!claim) throw new Error("the sandbox does not hold this claim");
  return claim.id;
}

describe.each(testDatabases())("inbox in the messaging protocol on $name", (target) => {
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
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await database?.dispose();
  });

  const services = () =>
    startPipeline({
      db: database.db,
      client: port,
      config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 25, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 60_000, concurrency: 8, messagePollMs: 100 },
      log: quiet,
    });

  it("a poll reply of good and malformed messages: every good one applied, every bad one kept and shown", async () => {
    const s = services();
    try {
      // Five claims decided later (by poll), and four messages nothing can apply, all in the same queue.
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 60 + i }] }) })).id);
      expect((await sb.admin("POST", "/_admin/mail", { raw: malformed(), event: "claim-response" })).status).toBe(201);
      expect((await sb.admin("POST", "/_admin/mail", { raw: malformed(), event: "claim-response" })).status).toBe(201);
      const strangerClaim = { resourceType: "ClaimResponse", id: randomUUID(), status: "active", type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] }, use: "claim", patient: { identifier: { value: "1000000001" } }, created: new Date().toISOString(), insurer: { identifier: { value: "INS-FOREIGN" } }, request: { identifier: { system: "https://elsewhere.example/claim", value: "not-ours-1" } }, outcome: "complete" };
      expect((await sb.admin("POST", "/_admin/mail", { event: "claim-response", resource: strangerClaim })).status).toBe(201);
      const task = { resourceType: "Task", id: randomUUID(), status: "completed", intent: "order", code: { coding: [{ code: "cancel" }] }, focus: { identifier: { value: "not-ours-2" } } };
      expect((await sb.admin("POST", "/_admin/mail", { event: "cancel-response", resource: task })).status).toBe(201);
      expect((await sb.admin("POST", "/_admin/mail", { event: "mystery-notice", resource: { ...task, id: randomUUID() } })).status).toBe(201);

      for (const id of ids) {
        await waitFor(async () => {
          const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
          return row && DECIDED.includes(row.status) ? row : undefined;
        }, 60_000, `claim ${id} decided by poll`);
      }
      await waitFor(async () => (await listOpenMessages(database.db)).length >= 5, 30_000, "the five kept messages");
      const kept = await listOpenMessages(database.db);
      const byReason = kept.map((k) => `${k.status}|${k.event}|${k.lastError}`);
      expect(kept.filter((k) => k.status === "failed" && /not a readable FHIR R4 message/.test(k.lastError ?? ""))).toHaveLength(2);
      expect(kept.filter((k) => k.status === "unmatched" && k.event === "claim-response")).toHaveLength(1);
      expect(kept.filter((k) => k.status === "unmatched" && k.event === "cancel-response")).toHaveLength(1);
      expect(kept.filter((k) => k.status === "unmatched" && /unknown message event "mystery-notice"/.test(k.lastError ?? "")), byReason.join("\n")).toHaveLength(1);
      // What it says, from the reader's view: the foreign decision's patient and claim.
      const foreign = kept.find((k) => k.event === "claim-response" && k.status === "unmatched")!;
      expect(foreign.summary).toMatchObject({ resourceType: "ClaimResponse", patient: "1000000001", claimIdentifier: "not-ours-1", outcome: "complete" });
      // Stored = delivered: every message the exchange handed out is a row (5 decisions + 5 kept).
      const all = await database.db.select().from(inboxMessages);
      expect(all.filter((r) => r.source === "poll").length).toBeGreaterThanOrEqual(10);
      expect(all.filter((r) => r.status === "applied").length).toBeGreaterThanOrEqual(5);
      const gauge = await refreshInboxGauge(database.db);
      expect(gauge.unmatched).toBeGreaterThanOrEqual(3);
      expect(gauge.failed).toBeGreaterThanOrEqual(2);
      // Dismissed with a reason: gone from the list, kept in the table.
      await dismissMessage(database.db, foreign.id, { userId: "u-test", reason: "another clinic's claim" });
      expect((await listOpenMessages(database.db)).some((k) => k.id === foreign.id)).toBe(false);
      console.log(`[inbox] poll reply good+malformed: ${all.length} stored, ${all.filter((r) => r.status === "applied").length} applied, ${kept.filter((k) => k.status === "failed").length} failed (malformed) and ${kept.filter((k) => k.status === "unmatched").length} unmatched kept`);
    } finally {
      await s.stop();
    }
  }, 120_000);

  for (const style of ["national", "default"] as const) {
    it(`a reissued decision (${style} style) becomes the current one; the earlier stays on the timeline; applied once`, async () => {
      expect((await sb.admin("PUT", "/_admin/answer-style", { style })).status).toBe(200);
      const s = services();
      try {
        const auth = await submit({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });
        const decided = await waitFor(async () => {
          const [row] = await database.db.select().from(submissions).where(eq(submissions.id, auth.id));
          return row && DECIDED.includes(row.status) ? row : undefined;
        }, 60_000, "the authorization decided");
        const first = decided.status;
        const target = first === "denied" ? "approved" : "denied";
        const claimId = await sandboxClaimId(sb, decided.identifierValue!);
        const reissued = await sb.admin("POST", `/_admin/claims/${claimId}/reissue`, { outcome: target, reason: "correction" });
        expect(reissued.status).toBe(201);
        const after = await waitFor(async () => {
          const [row] = await database.db.select().from(submissions).where(eq(submissions.id, auth.id));
          return row && row.status !== first ? row : undefined;
        }, 60_000, "the reissued decision applied");
        expect(after.status).toBe(target === "denied" ? "denied" : "complete");
        expect((after.response as { id?: string }).id).toBe((reissued.body as { responseId: string }).responseId);
        const events = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
        const decisions = events.filter((e) => DECIDED.includes(e.toStatus));
        expect(decisions.map((e) => e.toStatus)).toEqual([first, after.status]);
        const reissue = decisions[1]!.detail as { reissue?: { code?: string }; previous?: { status?: string }; messageId?: string };
        expect(reissue.reissue?.code).toBe("correction");
        expect(reissue.previous?.status).toBe(first);
        // The same message routed again (a crash before it was settled): nothing applied twice.
        // The message is settled just after the decision it carries is applied (its own step): wait for it.
        const row = await waitFor(async () => {
          const [stored] = await database.db.select().from(inboxMessages).where(eq(inboxMessages.messageId, reissue.messageId!));
          return stored?.status === "applied" ? stored : undefined;
        }, 30_000, "the reissue's message settled applied");
        const again = await storeMessages(database.db, [{ messageId: row!.messageId, source: "poll", body: row!.body }]);
        expect(again[0]!.fresh).toBe(false);
        expect(await routeInboxMessage({ db: database.db, handlers: PIPELINE_INBOUND, clock: () => new Date(), pollAfterMs: 60_000, log: quiet }, row!)).toEqual({ status: "applied" });
        const eventsAfter = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
        expect(eventsAfter).toHaveLength(events.length);
        console.log(`[inbox] revised decision (${style}): ${first} → ${after.status}, timeline decisions ${decisions.map((e) => e.toStatus).join(" → ")}, replay added ${eventsAfter.length - events.length} events`);
      } finally {
        await s.stop();
        await sb.admin("DELETE", "/_admin/answer-style");
      }
    }, 120_000);
  }

  it("a synchronous answer and each part of a batch-response are kept in the inbox, whole, and settled applied", async () => {
    // Three claims queued together go out as one batch-request; a prior authorization goes alone.
    const claims: string[] = [];
    for (let i = 0; i < 3; i++) claims.push((await submit({ db: database.db }, { kind: "claim", patientNationalId: "1000000001", claim: buildClaim({ use: "claim", items: [{ code: "85025", price: 70 + i }] }) })).id);
    const auth = (await submit({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "85025", price: 90 }] }) })).id;
    const s = services();
    try {
      const kept = async (id: string) => (await database.db.select().from(inboxMessages).where(eq(inboxMessages.submissionId, id))).filter((m) => m.source === "sync" || m.source === "batch");
      for (const id of [...claims, auth]) await waitFor(async () => ((await kept(id)).some((m) => m.status === "applied") ? true : undefined), 60_000, `the answer to ${id} kept`);
      for (const id of claims) {
        const [row] = await kept(id);
        expect(row!.source).toBe("batch");
        const message = JSON.parse(row!.body) as { resourceType: string; id: string; entry: { resource: { resourceType: string } }[] };
        // The batch-response's own part: one response message for this claim, named by its Bundle id.
        expect(message.resourceType).toBe("Bundle");
        expect(message.entry[0]!.resource.resourceType).toBe("MessageHeader");
        expect(message.entry.some((e) => e.resource.resourceType === "ClaimResponse")).toBe(true);
        expect(row!.messageId).toBe(message.id);
      }
      const [sync] = await kept(auth);
      expect(sync!.source).toBe("sync");
      expect(sync!.event).toBe("priorauth-response");
      // The reply exactly as the exchange sent it (text), with its decision.
      expect((JSON.parse(sync!.body) as { id: string }).id).toBe(sync!.messageId);
      expect(sync!.summary?.outcome).toBeTruthy();
      const [decided] = await database.db.select().from(submissions).where(eq(submissions.id, auth));
      expect(DECIDED).toContain(decided!.status);
    } finally {
      await s.stop();
    }
  }, 120_000);
});

describe.each(testDatabases())("inbox in the REST protocol on $name: webhook bodies kept, a reissue by webhook", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let relay: WebhookRelay;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    database = await target.open();
    const relayDeps: RelayDeps = { db: database.db, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
    relay = await startWebhookRelay(relayDeps);
    sb = await startTestSandbox({ webhookUrl: relay.url, webhookSecret: secret, webhookRetry: { baseDelayMs: 100, maxDelayMs: 500, maxAttempts: 4, timeoutMs: 5000 }, adjudicationDelayMs: 50 });
    client = testClient(database.db, sb.config);
    relayDeps.client = client;
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await relay?.close();
    await database?.dispose();
  });

  it("a second answer without the reissue extension is applied as the current decision; the webhook body is stored whole", async () => {
    const s = startPipeline({ db: database.db, client, config: { pollMs: 25, leaseMs: 10_000, maxAttempts: 5, backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 }, pollAfterMs: 60_000, concurrency: 4 }, log: quiet });
    try {
      const auth = await submit({ db: database.db }, { kind: "preauthorization", patientNationalId: "1000000001", claim: buildClaim({ use: "preauthorization", items: [{ code: "70553", price: 2500 }] }) });
      const decided = await waitFor(async () => {
        const [row] = await database.db.select().from(submissions).where(eq(submissions.id, auth.id));
        return row && DECIDED.includes(row.status) ? row : undefined;
      }, 60_000, "the authorization decided");
      const target = decided.status === "denied" ? "approved" : "denied";
      const claimId = await sandboxClaimId(sb, decided.identifierValue!);
      expect((await sb.admin("POST", `/_admin/claims/${claimId}/reissue`, { outcome: target, withoutReason: true })).status).toBe(201);
      const after = await waitFor(async () => {
        const [row] = await database.db.select().from(submissions).where(eq(submissions.id, auth.id));
        return row && row.status !== decided.status ? row : undefined;
      }, 60_000, "the reissue applied by webhook");
      expect(after.status).toBe(target === "denied" ? "denied" : "complete");
      const events = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
      const last = events.filter((e) => DECIDED.includes(e.toStatus)).at(-1)!;
      expect(last.source).toBe("webhook");
      expect((last.detail as { previous?: { status?: string } }).previous?.status).toBe(decided.status);
      const webhookId = (last.detail as { webhookId?: string }).webhookId!;
      const [kept] = await database.db.select().from(inboxMessages).where(eq(inboxMessages.messageId, webhookId));
      expect(kept?.source).toBe("webhook");
      expect(kept?.status).toBe("applied");
      expect(JSON.parse(kept!.body)).toMatchObject({ event: "claim.status.changed", claim_id: claimId });
      // The synchronous answer to the request itself is kept too: the ClaimResponse as received.
      const sync = (await database.db.select().from(inboxMessages).where(eq(inboxMessages.submissionId, auth.id))).filter((m) => m.source === "sync");
      expect(sync).toHaveLength(1);
      expect(sync[0]!.status).toBe("applied");
      expect(sync[0]!.fetched).toBe(sync[0]!.body);
      expect((JSON.parse(sync[0]!.body) as { resourceType: string }).resourceType).toBe("ClaimResponse");
      // Routed again from the inbox (as after a crash before it was settled), it changes nothing.
      const before = await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id));
      const outcome = await routeInboxMessage({ db: database.db, handlers: PIPELINE_INBOUND, clock: () => new Date(), pollAfterMs: 60_000, log: quiet }, sync[0]!);
      expect(outcome.status).toBe("applied");
      expect(await database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, auth.id))).toHaveLength(before.length);
    } finally {
      await s.stop();
    }
  }, 120_000);
});
