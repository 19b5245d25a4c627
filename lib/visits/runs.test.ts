import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { coverages, eligibilityChecks, visits } from "@/lib/db/schema";
import { runEligibilityCheck } from "@/lib/eligibility";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { createPlatformClient, portFor, type PlatformClient } from "@/lib/platform";
import { startPlatformSandbox, type PlatformSandbox } from "@/lib/platform/testing";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { importVisitList } from "./import";
import { recentVisitLists } from "./lists";
import { createRun, getRun, startVisitWorker } from "./runs";
import { aheadStats, worklist } from "./worklist";

// The REAL sandbox over mutual TLS; each database gets its own sandbox (its own eligibility budget).
const today = new Date().toISOString().slice(0, 10);
const CSV = [
  "national_id,date,insurer,services,given_name,family_name,birth_date,gender",
  `1000000001,${today},payer-rimal,99213`,
  `1000000001,${today},,92004`,
  `1000000001,${today},,71046`,
  `1000000001,${today},,70553`,
  `1000000002,${today},payer-wadi,99213`,
  `1048573628,${today},,99213 85025`,
  `2087654311,${today},,99213`,
  `1122334459,${today},,99213`,
  `1234567897,${today},,99213,Sami,Newpatient,1990-02-03,male`, // valid, not registered, no coverage registered
  `1000000004,${today},,99213`, // test range, not registered, no names
  `1234567890,${today},,99213`, // bad check digit
  `1048573628,2026-02-30,,99213`, // impossible date
  `1048573628,${today},payer-nowhere,99213`, // unknown insurer
].join("\n");

async function until(condition: () => Promise<boolean>, timeoutMs = 60_000) {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(testDatabases().map((d) => [d.name, d] as [string, TestDatabase]))("visit runs on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  let sandbox: PlatformSandbox;
  let client: PlatformClient;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    sandbox = await startPlatformSandbox();
    client = createPlatformClient(sandbox.config, { db: database.db });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await sandbox?.stop();
    await database?.dispose();
  });

  it("imports a CSV (bad rows by line, unknown patients registered), runs it across a restart without checking anyone twice", async () => {
    const port = portFor(client, database.db);
    let calls = 0;
    let discoveryCalls = 0;
    const counting = { checkEligibility: (...args: Parameters<typeof port.checkEligibility>) => (args[0].purpose?.includes("discovery") ? discoveryCalls++ : calls++, port.checkEligibility(...args)) };
    const list = await importVisitList(database.db, { name: "Tomorrow", source: "upload", csv: CSV, register: true, allowSandboxTestIds: true, run: "now" });
    expect(list.accepted).toBe(10);
    expect(list.rejected).toBe(3);
    expect(list.registered).toBe(1);
    expect(list.notRegistered).toBe(1);
    expect(list.problems.map((p) => [p.line, p.code])).toEqual([
      [12, "national_id_check-digit"],
      [13, "date_impossible"],
      [14, "insurer_unknown"],
    ]);
    expect(list.run).toMatchObject({ status: "running", total: 10 });

    // A crash first: a dead worker leased one visit, sent its check (stored under the identifier it wrote) and died.
    const [target] = await database.db.select().from(visits).where(eq(visits.nationalId, "1122334459"));
    const [stolen] = await database.db
      .update(visits)
      .set({ leaseOwner: "dead-worker", leaseUntil: new Date(Date.now() + 300), checkIdentifier: "0b7b5c3e-8f7e-4c1a-9a53-2d3c4e5f6a7b", attemptedAt: new Date() })
      .where(eq(visits.id, target!.id))
      .returning();
    const [coverage] = await database.db.select().from(coverages).where(eq(coverages.patientId, stolen!.patientId!));
    calls++;
    await runEligibilityCheck(
      { db: database.db, client: port, providerOrgId: sandbox.config.providerOrgId, batch: true, identifierValue: stolen!.checkIdentifier! },
      { actor: { kind: "system", name: "test" } },
      { patientId: stolen!.patientId!, coverageId: coverage!.id, servicedDate: today, purposes: ["benefits"], categories: [] },
    );

    // First worker: stopped (a deploy) after a few visits. Its checks take a while (200 ms each, two
    // at once), so the stop comes mid-run however fast the machine is.
    const slow = { checkEligibility: async (...args: Parameters<typeof port.checkEligibility>) => (await new Promise((r) => setTimeout(r, 200)), counting.checkEligibility(...args)) };
    const first = startVisitWorker({ db: database.db, port: slow, providerOrgId: sandbox.config.providerOrgId, concurrency: 2, pollMs: 50 });
    await until(async () => (await database.db.select().from(visits).where(eq(visits.checkState, "done"))).length >= 3);
    await first.stop();
    const doneBefore = (await database.db.select().from(visits).where(eq(visits.checkState, "done"))).length;
    expect(doneBefore).toBeGreaterThanOrEqual(3);
    expect(doneBefore).toBeLessThan(10);

    // After the restart: a new worker finishes the run; the dead worker's visit comes back when its lease runs out.
    const second = startVisitWorker({ db: database.db, port: counting, providerOrgId: sandbox.config.providerOrgId, concurrency: 3, pollMs: 50 });
    await until(async () => (await getRun(database.db, list.run!.id))?.status === "done");
    await second.stop();

    const all = await database.db.select().from(visits);
    expect(all.every((v) => v.checkState === "done")).toBe(true);
    // Platform calls: one per registered visit with a coverage — none repeated across the restart or
    // the crash — plus the discoveries of patients without a coverage (one stored check per insurer asked).
    const stored = await database.db.select({ id: eligibilityChecks.identifierValue, purposes: eligibilityChecks.purposes }).from(eligibilityChecks);
    const discoveries = stored.filter((s) => s.purposes.includes("discovery")).length;
    expect(discoveries).toBeLessThanOrEqual(discoveryCalls);
    const checkable = all.filter((v) => v.verdict !== "not_registered" && !(v.verdictDetail?.reason === "no_coverage_registered" || v.verdictDetail?.reason === "coverage_discovered"));
    expect(calls).toBe(checkable.length);
    // The crashed attempt's answer was adopted from the stored check, not asked again.
    expect(first.calls + second.calls + 1).toBe(checkable.length);
    expect(new Set(stored.map((s) => s.id)).size).toBe(stored.length);
    expect(stored.length - discoveries).toBe(checkable.length);

    const verdicts = Object.fromEntries(all.map((v) => [`${v.nationalId}:${v.services.join("+")}`, v.verdict]));
    expect(verdicts).toMatchObject({
      "1000000001:99213": "in_force",
      "1000000001:92004": "benefit_exhausted",
      "1000000001:71046": "benefit_low",
      "1000000002:99213": "not_in_force",
      "1000000004:99213": "not_registered",
      "1234567897:99213": "no_coverage",
    });
    expect(["preauth_required", "in_force"]).toContain(verdicts["1000000001:70553"]);

    const rows = await worklist(database.db, { verdict: "problems" });
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows[0]!.verdict).toBe("not_registered");
    const [summary] = (await recentVisitLists(database.db)).filter((l) => l.id === list.listId);
    expect(summary).toMatchObject({ visits: 10, checked: 10 });
    const stats = await aheadStats(database.db, today);
    expect(stats.visits).toBe(10);
    expect(stats.checkedAhead).toBe(10);
    expect(stats.problemsAhead).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it("a scheduled run waits for its time, then runs", async () => {
    const list = await importVisitList(database.db, { name: "Evening", source: "api", items: [{ nationalId: "2087654311", serviceDate: today }], allowSandboxTestIds: true });
    const run = await createRun(database.db, { listId: list.listId, runAt: new Date(Date.now() + 1_500) });
    expect(run.status).toBe("scheduled");
    const worker = startVisitWorker({ db: database.db, port: portFor(client, database.db), providerOrgId: sandbox.config.providerOrgId, pollMs: 50 });
    try {
      await new Promise((r) => setTimeout(r, 700));
      expect((await getRun(database.db, run.id))?.status).toBe("scheduled");
      await until(async () => (await getRun(database.db, run.id))?.status === "done", 10_000);
      expect(worker.calls).toBe(1);
    } finally {
      await worker.stop();
    }
  }, 30_000);
});
