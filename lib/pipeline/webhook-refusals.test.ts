import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, webhookReceipts } from "@/lib/db/schema";
import { testDatabases } from "@/lib/testing/databases";
import { signWebhook } from "@/sandbox";
import { type PlatformPort } from "@/lib/platform";
import { handlePlatformWebhook } from "./webhooks";

/*
 * A delivery whose signature does not verify is refused 401 before anything is read or stored,
 * and audited once as webhook.signature_refused (docs/decisions/094) — the reason, never the body.
 */
const SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
const OTHER = `whsec_${Buffer.from("fedcba9876543210fedcba9876543210").toString("base64")}`;

describe.each(testDatabases())("webhook signature refusals on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("audits each bad signature once as denied, with the reason; nothing stored, no patient data", async () => {
    // Never reached: a refused delivery does not call the platform.
    const client = {} as PlatformPort;
    const deps = { db: database.db, client, secret: SECRET, pollAfterMs: 60_000, fetchTimeoutMs: 1000 };
    const body = JSON.stringify({ event: "claim.status.changed", claim_id: "clm-secret-1000000001", status: "complete", timestamp: new Date().toISOString() });
    const now = Math.floor(Date.now() / 1000);
    const deliver = (headers: Record<string, string>, raw = body) =>
      handlePlatformWebhook(new Request("http://portal/api/webhooks/platform", { method: "POST", headers: { "content-type": "application/json", "x-request-id": "9d3c1a9e-8c1f-4a57-9c9e-2a1d7f6b3c11", ...headers }, body: raw }), deps);

    expect((await deliver({ "webhook-id": "msg_forged", "webhook-timestamp": String(now), "webhook-signature": signWebhook(OTHER, "msg_forged", now, body) })).status).toBe(401);
    expect((await deliver({ "webhook-id": "msg_stale", "webhook-timestamp": String(now - 400), "webhook-signature": signWebhook(SECRET, "msg_stale", now - 400, body) })).status).toBe(401);
    expect((await deliver({})).status).toBe(401);
    const rows = await database.db.select().from(auditEvents);
    expect(rows.map((r) => [r.action, r.outcome, r.actorKind, r.actorLabel, (r.details as { reason: string }).reason, r.requestId])).toEqual([
      ["webhook.signature_refused", "denied", "anonymous", "platform-webhook", "bad_signature", "9d3c1a9e-8c1f-4a57-9c9e-2a1d7f6b3c11"],
      ["webhook.signature_refused", "denied", "anonymous", "platform-webhook", "stale_timestamp", "9d3c1a9e-8c1f-4a57-9c9e-2a1d7f6b3c11"],
      ["webhook.signature_refused", "denied", "anonymous", "platform-webhook", "missing_headers", "9d3c1a9e-8c1f-4a57-9c9e-2a1d7f6b3c11"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("clm-secret");
    expect(await database.db.select().from(webhookReceipts)).toHaveLength(0);
  });

  it("a burst of bad deliveries prints no line per request", async () => {
    const deps = { db: database.db, client: {} as PlatformPort, secret: SECRET, pollAfterMs: 60_000, fetchTimeoutMs: 1000, log: (m: string) => printed.push(m) };
    const printed: unknown[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args) => void printed.push(args)));
    try {
      for (let i = 0; i < 200; i++) {
        await handlePlatformWebhook(new Request("http://portal/api/webhooks/platform", { method: "POST", headers: { "webhook-id": `m${i}`, "webhook-timestamp": "1", "webhook-signature": "v1,AAAA" }, body: "{}" }), deps);
      }
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(printed.length).toBeLessThanOrEqual(1);
    expect((await database.db.select().from(auditEvents)).filter((r) => r.action === "webhook.signature_refused")).toHaveLength(203);
  });
});
