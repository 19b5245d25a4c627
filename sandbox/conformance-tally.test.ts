import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./test-support";
import { env } from "./corpus/nphies-message";
import { corpusRunner } from "./corpus/runner";
import { INVALID_CASES } from "./corpus/invalid";
import { VALID_CASES } from "./corpus/valid";
import type { ConformanceReport } from "./conformance-tally";

/**
 * The conformance tally (GET /_admin/conformance): a lenient sandbox still runs the exchange's
 * rule checker on every message and counts what it found — a valid message clean, an invalid one
 * against its rule and event — without refusing either, keeps the report in its data directory;
 * DELETE starts the count again.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 40 });
});
afterAll(async () => {
  await t.stop();
});

const report = async () => (await t.admin("GET", "/_admin/conformance")).body as unknown as ConformanceReport;

describe("conformance tally", () => {
  it("counts a valid message clean and an invalid one against its rule, at the lenient level", async () => {
    const run = corpusRunner(t);
    expect((await t.admin("DELETE", "/_admin/conformance")).body).toMatchObject({ messages: 0, clean: 0 });
    const valid = VALID_CASES.find((c) => c.event === "eligibility-request")!;
    const accepted = await run.send((await valid.build(env(), run)) as Record<string, unknown>);
    expect(accepted.status).toBe(200);
    const bad = INVALID_CASES.find((c) => c.rule === "headerId")!;
    await run.send(bad.build(env()) as Record<string, unknown>);
    const r = await report();
    expect(r).toMatchObject({ messages: 2, clean: 1, byEvent: { "eligibility-request": { messages: 1, clean: 1 }, "claim-request": { messages: 1, clean: 0 } } });
    expect(r.rules.find((x) => x.rule === "headerId")).toMatchObject({ code: "BV-00168", failing: 1, events: ["claim-request"], paths: [{ path: "Bundle.entry[*].resource.id", messages: 1 }] });
    expect(r.rules.filter((x) => x.failing > 0 && x.rule !== "headerId")).toEqual([]);
    // Counts only: no identifier, licence or patient detail in the report.
    expect(JSON.stringify(r)).not.toMatch(/PR-CLINIC|10555|2[0-9]{9}/);
    // Kept in the data directory too, for a test run to read after the sandbox stopped.
    const file = path.join(t.dataDir, "conformance.json");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(r);
    expect((await t.admin("DELETE", "/_admin/conformance")).body).toMatchObject({ messages: 0 });
    expect((await t.admin("PUT", "/_admin/conformance", {})).status).toBe(405);
  });
});
