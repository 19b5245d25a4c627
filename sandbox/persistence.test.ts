import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Journal } from "./journal";
import { startSandbox } from "./server";
import { claimBody, errorCode, processingStatus, startTestSandbox, tempDataDir, waitFor } from "./test-support";

describe("journal", () => {
  it("replays events, cuts a torn last line and refuses a damaged middle line", () => {
    const file = path.join(tempDataDir(), "j.jsonl");
    const { journal } = Journal.open<{ n: number }>(file);
    journal.append({ n: 1 }, { n: 2 });
    journal.close();
    fs.appendFileSync(file, '{"n":3');
    let torn = 0;
    const reopened = Journal.open<{ n: number }>(file, (bytes) => (torn = bytes));
    expect(reopened.events).toEqual([{ n: 1 }, { n: 2 }]);
    expect(torn).toBe(6);
    reopened.journal.append({ n: 4 });
    reopened.journal.close();
    expect(Journal.open<{ n: number }>(file).events.map((e) => e.n)).toEqual([1, 2, 4]);

    fs.writeFileSync(file, '{"n":1}\nnot json\n{"n":2}\n');
    expect(() => Journal.open(file)).toThrow(/line 2/);
  });
});

describe("state survives a restart", () => {
  it("keeps claims, statuses, receipts, duplicates and tokens; resumes queued claims", async () => {
    const dataDir = tempDataDir();
    const gold = { patientId: "1000000001", coverageId: "cov-1000000001" };
    let t = await startTestSandbox({ dataDir, adjudicationDelayMs: 1_000 });
    const token = await t.token();
    const pa = await t.call("POST", "/Claim", { body: claimBody({ ...gold, use: "preauthorization", items: [{ code: "70553", price: 2500 }], identifier: "PA-KEEP" }) });
    const paId = String(pa.headers.location).replace("Claim/", "");
    const queued = await t.call("POST", "/Claim", {
      body: claimBody({ ...gold, use: "claim", items: [{ code: "70553", price: 2500 }], identifier: "CL-KEEP", preAuthRef: [String(pa.body.preAuthRef)] }),
      token,
    });
    expect(queued.status).toBe(202);
    const claimId = String(queued.headers.location).replace("Claim/", "");
    expect(processingStatus((await t.call("GET", `/Claim/${claimId}`, { token })).body)).toBe("queued");
    await t.stop(); // before the adjudication is due

    t = await startTestSandbox({ dataDir, adjudicationDelayMs: 300 });
    try {
      // The token issued before the restart is still valid (signing key kept in the data dir).
      const pre = await t.call("GET", `/Claim/${paId}`, { token });
      expect(pre.status).toBe(200);
      expect(processingStatus(pre.body)).toBe("complete");
      // The queued claim is adjudicated after the restart, using the authorization made before it.
      const done = await waitFor(async () => {
        const res = await t.call("GET", `/Claim/${claimId}`, { token });
        return processingStatus(res.body) === "complete" ? res : undefined;
      });
      expect(done.status).toBe(200);
      const dup = await t.call("POST", "/Claim", { body: claimBody({ ...gold, use: "claim", items: [{ code: "99213", price: 250 }], identifier: "CL-KEEP" }), token });
      expect(dup.status).toBe(409);
      expect(errorCode(dup.body)).toBe("ERR-005");
      const receipts = (await t.admin("GET", "/_admin/claims")).body.receipts as { value: string; count: number }[];
      expect(receipts.find((r) => r.value === "CL-KEEP")?.count).toBe(2);
      expect(receipts.find((r) => r.value === "PA-KEEP")?.count).toBe(1);
    } finally {
      await t.stop();
    }

    // A torn last line (crash mid-write) is tolerated.
    fs.appendFileSync(path.join(dataDir, "journal.jsonl"), '{"type":"receipt","at":"2026');
    t = await startTestSandbox({ dataDir });
    try {
      expect((await t.call("GET", `/Claim/${claimId}`)).status).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it("refuses a second sandbox on the same data folder", async () => {
    const dataDir = tempDataDir();
    const t = await startTestSandbox({ dataDir });
    try {
      await expect(startSandbox({ dataDir, port: 0, quiet: true })).rejects.toThrow(/another sandbox/);
    } finally {
      await t.stop();
    }
    const again = await startSandbox({ dataDir, port: 0, quiet: true });
    await again.close();
  });
});
