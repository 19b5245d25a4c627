import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, submissionEvents, submissions, webhookReceipts } from "@/lib/db/schema";
import type { PlatformClient } from "@/lib/platform";
import { testDatabases } from "@/lib/testing/databases";
import { signWebhook } from "@/sandbox";
import { handlePlatformWebhook } from "./webhooks";
import { startPipeline } from "./index";
import { startOutboxWorker, type OutboxWorker } from "@/lib/submissions";
import { getSubmission, retrySubmission, submissionTimeline, submit } from "@/lib/submissions";
import type { Submission } from "@/lib/submissions";
import {
  buildClaim,
  newWebhookSecret,
  startTestSandbox,
  startWebhookRelay,
  testClient,
  waitFor,
  type ItemSpec,
  type RelayDeps,
  type SandboxHandle,
  type WebhookRelay,
} from "./testing/harness";

const quiet = () => {};
const FINAL = ["complete", "partial", "denied", "rejected", "failed"];

describe.each(testDatabases())("submission pipeline against the sandbox on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let sb: SandboxHandle;
  let client: PlatformClient;
  let relay: WebhookRelay;
  let relayDeps: RelayDeps;
  const secret = newWebhookSecret();

  beforeAll(async () => {
    database = await target.open();
    relayDeps = { db: database.db, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
    relay = await startWebhookRelay(relayDeps);
    sb = await startTestSandbox({
      webhookUrl: relay.url,
      webhookSecret: secret,
      webhookRetry: { baseDelayMs: 100, maxDelayMs: 500, maxAttempts: 4, timeoutMs: 5000 },
      adjudicationDelayMs: 50,
    });
    client = testClient(database.db, sb.config);
    relayDeps.client = client;
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await relay?.close();
    await database?.dispose();
  });

  function worker(overrides: Partial<Parameters<typeof startOutboxWorker>[0]> = {}, c: PlatformClient = client): OutboxWorker {
    return startOutboxWorker({
      db: database.db,
      client: c,
      pollMs: 30,
      leaseMs: 30_000,
      maxAttempts: 3,
      backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 },
      pollAfterMs: 60_000,
      log: quiet,
      ...overrides,
    });
  }

  const send = (use: "claim" | "preauthorization", items: ItemSpec[], overrideReason?: string) =>
    submit({ db: database.db }, { kind: use, patientNationalId: "1000000001", claim: buildClaim({ use, items }), channel: "ui" }, { acknowledgeWarnings: true, ...(overrideReason ? { overrideReason } : {}) });

  const settled = (id: string, statuses = FINAL, timeoutMs = 60_000) =>
    waitFor(async () => {
      const row = await getSubmission(database.db, id);
      return row && statuses.includes(row.status) ? row : undefined;
    }, timeoutMs, `submission ${id} in ${statuses.join("|")}`);

  it("claim: queued → sent → complete driven by the sandbox's signed webhook, adjudication stored", async () => {
    const w = worker();
    try {
      const s = await send("claim", [
        { code: "99213", price: 250 },
        { code: "85025", price: 60, quantity: 2 },
        { code: "71046", price: 180 },
      ]);
      const done = await settled(s.id);
      expect(done.status).toBe("complete");
      expect(done.platformId).toMatch(/^[0-9a-f-]{36}$/);
      expect(done.totalMinor).toBe(25000 + 12000 + 18000);
      const response = done.response as { payment?: { amount?: { value?: number } }; request?: { reference?: string } };
      expect(response.payment?.amount?.value).toBe(470);
      expect(response.request?.reference).toBe(`Claim/${done.platformId}`);
      const timeline = await submissionTimeline(database.db, s.id);
      const moves = timeline.filter((t) => t.fromStatus !== t.toStatus).map((t) => `${t.fromStatus}>${t.toStatus}:${t.source}`);
      expect(moves).toEqual(["null>draft:user", "draft>queued:user", "queued>sent:platform", "sent>complete:webhook"]);
      const sent = timeline.find((t) => t.toStatus === "sent")!;
      expect(sent.requestId).toBe(done.lastRequestId);
      const receipts = await database.db.select().from(webhookReceipts).where(eq(webhookReceipts.claimId, done.platformId!));
      expect(receipts.some((r) => r.result === "applied" && r.status === "complete")).toBe(true);
      expect(done.attempts).toBe(1);
      // The webhook handler audits after its commit (the status is visible a moment before its entry).
      const audited = await waitFor(async () => {
        const rows = await database.db.select().from(auditEvents).where(eq(auditEvents.targetId, s.id));
        return rows.length >= 2 ? rows : undefined;
      }, 10_000, "the send and the webhook audited");
      expect(audited.map((a) => `${a.action}:${a.outcome}:${a.actorLabel}`).sort()).toEqual([
        "submission.send:success:outbox",
        "submission.status:success:platform-webhook",
      ]);
      expect(JSON.stringify(audited)).not.toContain("1000000001");
    } finally {
      await w.stop();
    }
  });

  it("authorizations are decided in the POST answer: complete, partial, denied", async () => {
    const w = worker();
    try {
      const approved = await send("preauthorization", [{ code: "70553", price: 2500 }]);
      const partial = await send("preauthorization", [{ code: "29881", price: 10000 }]);
      // The scrubber blocks the excluded service (decision 090); overridden to have the payer deny it.
      const denied = await send("preauthorization", [{ code: "15823", price: 4000 }, { code: "58970", price: 6000 }], "to see the payer's denial");
      const [a, p, d] = await Promise.all([settled(approved.id), settled(partial.id), settled(denied.id)]);
      expect([a.status, p.status, d.status]).toEqual(["complete", "partial", "denied"]);
      expect((a.response as { preAuthRef?: string }).preAuthRef).toMatch(/^PA-/);
      expect((d.response as { preAuthRef?: string }).preAuthRef).toBeUndefined();
      const timeline = await submissionTimeline(database.db, a.id);
      expect(timeline.filter((t) => t.toStatus === "complete").map((t) => t.source)).toEqual(["platform"]);
    } finally {
      await w.stop();
    }
  });

  it("an unknown CPT code is rejected (ERR-003) with the platform's reasons and never retried", async () => {
    const w = worker();
    try {
      const s = await send("claim", [{ code: "00000", price: 100 }]);
      const done = await settled(s.id);
      expect(done.status).toBe("rejected");
      expect(done.errors?.[0]).toMatchObject({ code: "ERR-003", status: 422, resolution: "Use a valid code" });
      expect(done.errors?.[0]?.diagnostics).toBeTruthy();
      expect(done.nextAttemptAt).toBeNull();
      await new Promise((r) => setTimeout(r, 300));
      const after = await getSubmission(database.db, s.id);
      expect(after!.attempts).toBe(1);
      expect((await sb.identifierCounts()).receipts.get(s.identifierValue!)).toBe(1);
    } finally {
      await w.stop();
    }
  });

  it("webhooks: bad signature or stale timestamp → 401 and nothing changes; the same delivery twice is applied once", async () => {
    relay.enabled = false; // the sandbox's own deliveries are "missed"; we deliver by hand
    const w = worker();
    let s: Submission;
    try {
      s = await send("claim", [{ code: "99213", price: 250 }]);
      s = await settled(s.id, ["sent", "pended"]);
    } finally {
      await w.stop();
    }
    try {
      await manualDeliveries(s);
    } finally {
      relay.enabled = true;
    }
  });

  async function manualDeliveries(s: Submission) {
    await waitFor(async () => {
      const { body } = await sb.admin("GET", "/_admin/claims");
      return (body.claims as { id: string; status: string }[]).some((c) => c.id === s.platformId && ["complete", "partial", "denied"].includes(c.status));
    }, 60_000, "sandbox adjudication");

    const deps = { db: database.db, client, secret, pollAfterMs: 60_000, fetchTimeoutMs: 3000 };
    const body = JSON.stringify({ event: "claim.status.changed", claim_id: s.platformId, status: "complete", timestamp: new Date().toISOString() });
    const deliver = (id: string, ts: number, sig: string, raw = body) =>
      handlePlatformWebhook(
        new Request("http://portal/api/webhooks/platform", {
          method: "POST",
          headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": sig },
          body: raw,
        }),
        deps,
      );
    const now = Math.floor(Date.now() / 1000);
    const before = await getSubmission(database.db, s.id);

    const forged = await deliver("msg_forged", now, signWebhook(newWebhookSecret(), "msg_forged", now, body));
    expect(forged.status).toBe(401);
    const tampered = await deliver("msg_t", now, signWebhook(secret, "msg_t", now, body), body.replace("complete", "denied"));
    expect(tampered.status).toBe(401);
    const stale = await deliver("msg_stale", now - 400, signWebhook(secret, "msg_stale", now - 400, body));
    expect(stale.status).toBe(401);
    expect(await stale.json()).toMatchObject({ error: "invalid_signature" });
    const badBody = await deliver("msg_bad", now, signWebhook(secret, "msg_bad", now, "{}"), "{}");
    expect(badBody.status).toBe(400);
    expect(await getSubmission(database.db, s.id)).toEqual(before);
    const noReceipts = await database.db.select().from(webhookReceipts).where(eq(webhookReceipts.webhookId, "msg_forged"));
    expect(noReceipts).toHaveLength(0);

    // Several signatures (key rotation): one valid is enough.
    const sig = `v1,${Buffer.alloc(32).toString("base64")} ${signWebhook(secret, "msg_once", now, body)}`;
    const first = await deliver("msg_once", now, sig);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ result: "applied" });
    const second = await deliver("msg_once", now, sig);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ duplicate: true });
    const done = await getSubmission(database.db, s.id);
    expect(done!.status).toBe("complete");
    expect((done!.response as { payment?: unknown }).payment).toBeDefined();
    const decisions = await database.db
      .select()
      .from(submissionEvents)
      .where(and(eq(submissionEvents.submissionId, s.id), eq(submissionEvents.toStatus, "complete")));
    expect(decisions).toHaveLength(1);

    const unknownBody = JSON.stringify({ event: "claim.status.changed", claim_id: "no-such-claim", status: "complete", timestamp: new Date().toISOString() });
    const unknown = await deliver("msg_unknown", now, signWebhook(secret, "msg_unknown", now, unknownBody), unknownBody);
    // Not known (yet): no receipt is kept and the platform is asked to deliver again.
    expect(unknown.status).toBe(409);
    expect(await database.db.select().from(webhookReceipts).where(eq(webhookReceipts.webhookId, "msg_unknown"))).toHaveLength(0);
    const again = await deliver("msg_unknown", now, signWebhook(secret, "msg_unknown", now, unknownBody), unknownBody);
    expect(again.status).toBe(409);

    // resource.available: the announced resource is read from the platform; one it cannot serve is
    // asked for again later (503, no receipt kept).
    const announce = JSON.stringify({ event: "resource.available", resource_type: "CommunicationRequest", resource_id: "no-such-request", timestamp: new Date().toISOString() });
    const unreadable = await deliver("msg_res", now, signWebhook(secret, "msg_res", now, announce), announce);
    expect(unreadable.status).toBe(503);
    expect(await unreadable.json()).toMatchObject({ error: "read_failed" });
    expect(await database.db.select().from(webhookReceipts).where(eq(webhookReceipts.webhookId, "msg_res"))).toHaveLength(0);
    const wrongType = JSON.stringify({ event: "resource.available", resource_type: "Patient", resource_id: "x", timestamp: new Date().toISOString() });
    expect((await deliver("msg_type", now, signWebhook(secret, "msg_type", now, wrongType), wrongType)).status).toBe(400);
  }

  it("retry exhaustion → failed (visible), then retrySubmission completes it with the same identifier", async () => {
    await sb.setFaults({ errorRate: 1, errorStatus: 503, retryAfterSeconds: 0 });
    const w = worker();
    try {
      const s = await send("preauthorization", [{ code: "72148", price: 2000 }]);
      const failed = await settled(s.id);
      expect(failed.status).toBe("failed");
      expect(failed.attempts).toBe(3);
      expect(failed.errors?.[0]).toMatchObject({ status: 503 });
      const retries = (await submissionTimeline(database.db, s.id)).filter((t) => (t.detail as { event?: string } | null)?.event === "retry");
      expect(retries).toHaveLength(2);
      expect(new Set(retries.map((r) => r.requestId)).size).toBe(2);

      await sb.setFaults({});
      await retrySubmission({ db: database.db }, s.id);
      w.wake();
      const done = await settled(s.id, ["complete", "partial", "denied", "rejected"]);
      expect(done.status).toBe("complete");
      expect(done.identifierValue).toBe(s.identifierValue);
      const counts = await sb.identifierCounts();
      expect(counts.claims.get(s.identifierValue!)).toBe(1);
      expect(counts.receipts.get(s.identifierValue!)).toBe(1);
    } finally {
      await sb.setFaults({});
      await w.stop();
    }
  });

  it("a missed webhook (sandbox without webhookUrl) is caught by the poller", async () => {
    const silent = await startTestSandbox({ adjudicationDelayMs: 50 });
    const silentClient = testClient(database.db, silent.config);
    const w = worker({ pollAfterMs: 400 }, silentClient);
    try {
      const s = await submit({ db: database.db }, { kind: "claim", patientNationalId: "2087654311", claim: buildClaim({ use: "claim", patientId: "2087654311", items: [{ code: "99213", price: 250 }] }) });
      const done = await settled(s.id);
      expect(done.status).toBe("complete");
      expect((done.response as { payment?: { amount?: { value?: number } } }).payment?.amount?.value).toBe(225);
      const timeline = await submissionTimeline(database.db, s.id);
      expect(timeline.find((t) => t.toStatus === "complete")?.source).toBe("poll");
    } finally {
      await w.stop();
      await silentClient.close();
      await silent.close();
    }
  });

  it("startPipeline runs the worker (with the poller) until stopped", async () => {
    const services = startPipeline({ db: database.db, client, config: { pollMs: 30, backoff: { baseMs: 20, maxMs: 100, jitter: 0.5 } }, log: quiet });
    try {
      const s = await send("preauthorization", [{ code: "70553", price: 2500 }]);
      expect((await settled(s.id)).status).toBe("complete");
    } finally {
      await services.stop();
    }
    const later = await send("preauthorization", [{ code: "70553", price: 2500 }]);
    await new Promise((r) => setTimeout(r, 200));
    expect((await getSubmission(database.db, later.id))!.status).toBe("queued");
  });

  it("never logs patient identifiers", async () => {
    const lines: string[] = [];
    const w = worker({ log: (m) => lines.push(m) });
    try {
      const s = await send("claim", [{ code: "00001", price: 1 }]);
      await settled(s.id);
    } finally {
      await w.stop();
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain("1000000001");
    const [row] = await database.db.select({ n: submissions.id }).from(submissions).limit(1);
    expect(row).toBeDefined();
  });
});
