import fs from "node:fs";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperationOutcomeSchema } from "../lib/fhir";
import { sandboxAdminCommands } from "./admin-commands";
import { certificateThumbprint } from "./pki";
import { claimBody, eligibilityRequest, startTestSandbox, tempDataDir, type TestSandbox } from "./test-support";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.stop();
});

const eligibility = () => t.call("POST", "/CoverageEligibilityRequest", { body: eligibilityRequest("1000000001", "payer-rimal") });

describe("fault injection via /_admin/faults", () => {
  it("requires the admin token", async () => {
    const res = await request(`${t.sandbox.url}/_admin/faults`, { dispatcher: t.agent, headers: { "x-sandbox-admin-token": "wrong" } });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
  });

  it("is off by default and validates updates", async () => {
    const res = await t.admin("GET", "/_admin/faults");
    expect(res.body).toMatchObject({ latencyMs: 0, errorRate: 0, dropRate: 0, force429: false });
    expect((await t.admin("PUT", "/_admin/faults", { errorRate: 2 })).status).toBe(400);
    expect((await t.admin("PUT", "/_admin/faults", { unknown: true })).status).toBe(400);
  });

  it("injects 5xx, forced 429, latency and dropped connections at run time", async () => {
    await t.token(); // before faults: the token endpoint is subject to faults too
    expect((await eligibility()).status).toBe(200);

    await t.admin("PUT", "/_admin/faults", { errorRate: 1, errorStatus: 503, retryAfterSeconds: 2 });
    const failed = await eligibility();
    expect(failed.status).toBe(503);
    expect(failed.headers["retry-after"]).toBe("2");
    expect(OperationOutcomeSchema.parse(failed.body).issue[0]?.code).toBe("transient");

    await t.admin("PUT", "/_admin/faults", { errorRate: 0, force429: true });
    const limited = await eligibility();
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("2");

    await t.admin("PUT", "/_admin/faults", { force429: false, latencyMs: 150 });
    const started = Date.now();
    expect((await eligibility()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    await t.admin("PUT", "/_admin/faults", { latencyMs: 0, dropRate: 1 });
    await expect(eligibility()).rejects.toThrow();

    const reset = await t.admin("DELETE", "/_admin/faults");
    expect(reset.body).toMatchObject({ dropRate: 0 });
    expect((await eligibility()).status).toBe(200);
  });

  it("drops the answer after processing: the retry is a duplicate, and receipts show both", async () => {
    await t.admin("PUT", "/_admin/faults", { dropAfterProcessingRate: 1 });
    const body = claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }], identifier: "LOST-ANSWER-1" });
    await expect(t.call("POST", "/Claim", { body })).rejects.toThrow();
    await t.admin("DELETE", "/_admin/faults");
    const retry = await t.call("POST", "/Claim", { body });
    expect(retry.status).toBe(409);
    expect(retry.headers.location).toMatch(/^Claim\//);
    const counts = (await t.admin("GET", "/_admin/claims")).body.receipts as { value: string; count: number }[];
    expect(counts.find((r) => r.value === "LOST-ANSWER-1")?.count).toBe(2);
  });

  it("runs a queued claim at once with POST /_admin/claims/{id}/process", async () => {
    const slow = await startTestSandbox({ adjudicationDelayMs: 60_000 });
    try {
      const res = await slow.call("POST", "/Claim", {
        body: claimBody({ patientId: "1000000001", coverageId: "cov-1000000001", use: "claim", items: [{ code: "99213", price: 250 }] }),
      });
      const id = String(res.headers.location).replace("Claim/", "");
      const run = await slow.admin("POST", `/_admin/claims/${id}/process`);
      expect(run.body).toMatchObject({ id, status: "complete" });
      expect((await slow.admin("POST", `/_admin/claims/${id}/process`)).status).toBe(409);
    } finally {
      await slow.stop();
    }
  });
});

describe("admin CLI commands", () => {
  const command = (name: string) => {
    const c = sandboxAdminCommands.find((x) => x.name === name);
    if (!c) throw new Error(`no command ${name}`);
    return c;
  };
  const stdin = async () => "";

  it("sandbox:credentials prints absolute paths and creates the PKI when missing", async () => {
    const dir = tempDataDir();
    const out = await command("sandbox:credentials").run({ flags: { "data-dir": [dir], port: ["9555"] }, stdin });
    const json = out.json as Record<string, string>;
    expect(json.baseUrl).toBe("https://localhost:9555");
    expect(json.tokenUrl).toBe("https://localhost:9555/oauth/token");
    for (const k of ["cert", "key", "ca"]) {
      expect(json[k]?.startsWith("/")).toBe(true);
      expect(fs.existsSync(json[k]!)).toBe(true);
    }
    expect(json.clientSecret).toBeTruthy();
    expect(json.adminToken).toBeUndefined();
    expect(out.text).toContain(json.clientId!);
    const shown = await command("sandbox:credentials").run({ flags: { "data-dir": [dir], "show-secrets": [] }, stdin });
    expect((shown.json as Record<string, string>).webhookSecret).toMatch(/^whsec_/);
  });

  it("pki:renew-client replaces the client certificate", async () => {
    const dir = tempDataDir();
    const creds = (await command("sandbox:credentials").run({ flags: { "data-dir": [dir] }, stdin })).json as Record<string, string>;
    const before = certificateThumbprint(fs.readFileSync(creds.cert!, "utf8"));
    const out = await command("pki:renew-client").run({ flags: { "data-dir": [dir] }, stdin });
    const renewed = out.json as { thumbprint: string; previousThumbprint: string; notAfter: string };
    expect(renewed.previousThumbprint).toBe(before);
    expect(renewed.thumbprint).not.toBe(before);
    expect(certificateThumbprint(fs.readFileSync(creds.cert!, "utf8"))).toBe(renewed.thumbprint);
    const days = (Date.parse(renewed.notAfter) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  it("rejects bad flags with a clear error", async () => {
    await expect(command("sandbox:credentials").run({ flags: { port: ["http"] }, stdin })).rejects.toThrow(/port/);
    await expect(command("sandbox:credentials").run({ flags: { bogus: ["1"] }, stdin })).rejects.toThrow(/unknown flag/);
    await expect(command("pki:renew-client").run({ flags: { "data-dir": ["a", "b"] }, stdin })).rejects.toThrow(/more than once/);
  });
});
