import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { retryDelayMs, DEFAULT_WEBHOOK_RETRY } from "./webhooks";
import { claimBody, startTestSandbox, tempDataDir, waitFor, type TestSandbox } from "./test-support";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A local webhook receiver answering with the statuses of `plan` in turn (then the last one). */
async function receiver(plan: number[]) {
  const received: Received[] = [];
  const statuses = [...plan];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/platform`;
  return {
    url,
    received,
    setPlan: (next: number[]) => statuses.splice(0, statuses.length, ...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Independent Standard Webhooks verification (what the portal will do). */
function verify(secret: string, r: Received): boolean {
  const id = String(r.headers["webhook-id"]);
  const ts = String(r.headers["webhook-timestamp"]);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${r.body}`).digest();
  return String(r.headers["webhook-signature"])
    .split(" ")
    .some((part) => {
      const [version, sig] = part.split(",");
      const given = Buffer.from(sig ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const preauth = () =>
  claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "preauthorization", items: [{ code: "99213", price: 250 }] });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("claim.status.changed webhooks", () => {
  it("computes the documented backoff schedule", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(DEFAULT_WEBHOOK_RETRY, n))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000]);
    expect(retryDelayMs({ ...DEFAULT_WEBHOOK_RETRY, maxDelayMs: 15_000 }, 3)).toBe(15_000);
  });

  it("delivers signed events for every status change of a claim", async () => {
    const hook = await receiver([204]);
    cleanups.push(hook.close);
    const t = await startTestSandbox({ webhookUrl: hook.url, adjudicationDelayMs: 50 });
    cleanups.push(t.stop);
    const res = await t.call("POST", "/Claim", {
      body: claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] }),
    });
    const id = String(res.headers.location).replace("Claim/", "");
    await waitFor(() => (hook.received.length >= 2 ? true : undefined));
    const secret = t.sandbox.credentials.webhookSecret;
    expect(secret).toMatch(/^whsec_/);
    const bodies = hook.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((b) => b.status)).toEqual(["queued", "complete"]);
    for (const [i, r] of hook.received.entries()) {
      expect(verify(secret, r)).toBe(true);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(String(r.headers["webhook-id"])).toMatch(/^msg_/);
      expect(Math.abs(Number(r.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
      expect(Object.keys(bodies[i]!).sort()).toEqual(["claim_id", "event", "status", "timestamp"]);
      expect(bodies[i]).toMatchObject({ event: "claim.status.changed", claim_id: id });
      expect(String(bodies[i]!.timestamp)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    // A tampered body or a wrong secret does not verify (the check above can fail).
    expect(verify(secret, { ...hook.received[0]!, body: hook.received[0]!.body.replace("queued", "complete") })).toBe(false);
    expect(verify("whsec_" + Buffer.from("wrong").toString("base64"), hook.received[0]!)).toBe(false);
  });

  it("retries with exponential backoff until a 2xx, keeping the webhook-id", async () => {
    const hook = await receiver([500, 503, 200]);
    cleanups.push(hook.close);
    const t = await startTestSandbox({ webhookUrl: hook.url, webhookRetry: { baseDelayMs: 150, maxAttempts: 5 } });
    cleanups.push(t.stop);
    await t.call("POST", "/Claim", { body: preauth() });
    await waitFor(() => (hook.received.length >= 3 ? true : undefined));
    const ids = new Set(hook.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const [a, b, c] = hook.received.map((r) => r.at);
    expect(b! - a!).toBeGreaterThanOrEqual(140);
    expect(c! - b!).toBeGreaterThanOrEqual(290);
    expect(hook.received.every((r) => verify(t.sandbox.credentials.webhookSecret, r))).toBe(true);
    const state = await waitFor(async () => {
      const d = ((await t.admin("GET", "/_admin/webhooks")).body.deliveries as { state: string; attempts: number }[])[0];
      return d?.state === "delivered" ? d : undefined;
    });
    expect(state.attempts).toBe(3);
  });

  it("gives up after the configured number of attempts", async () => {
    const hook = await receiver([500]);
    cleanups.push(hook.close);
    const t = await startTestSandbox({ webhookUrl: hook.url, webhookRetry: { baseDelayMs: 20, maxAttempts: 3 } });
    cleanups.push(t.stop);
    await t.call("POST", "/Claim", { body: preauth() });
    const d = await waitFor(async () => {
      const x = ((await t.admin("GET", "/_admin/webhooks")).body.deliveries as { state: string; attempts: number; lastError: string }[])[0];
      return x?.state === "failed" ? x : undefined;
    });
    expect(d.attempts).toBe(3);
    expect(d.lastError).toBe("HTTP 500");
    expect(hook.received).toHaveLength(3);
  });

  it("keeps pending retries across a restart", async () => {
    const hook = await receiver([503]);
    cleanups.push(hook.close);
    const dataDir = tempDataDir();
    const options = { dataDir, webhookUrl: hook.url, webhookRetry: { baseDelayMs: 400, maxAttempts: 5 } };
    let t: TestSandbox | undefined = await startTestSandbox(options);
    await t.call("POST", "/Claim", { body: preauth() });
    await waitFor(async () => {
      const d = ((await t!.admin("GET", "/_admin/webhooks")).body.deliveries as { attempts: number }[])[0];
      return d && d.attempts >= 1 ? true : undefined;
    });
    await t.stop();
    expect(hook.received).toHaveLength(1);
    const firstId = hook.received[0]!.headers["webhook-id"];

    hook.setPlan([200]);
    t = await startTestSandbox(options);
    cleanups.push(t.stop);
    await waitFor(() => (hook.received.length >= 2 ? true : undefined), 5_000);
    expect(hook.received[1]!.headers["webhook-id"]).toBe(firstId);
    expect(verify(t.sandbox.credentials.webhookSecret, hook.received[1]!)).toBe(true);
    const d = await waitFor(async () => {
      const x = ((await t!.admin("GET", "/_admin/webhooks")).body.deliveries as { state: string; attempts: number }[])[0];
      return x?.state === "delivered" ? x : undefined;
    });
    expect(d.attempts).toBe(2);
  });
});
