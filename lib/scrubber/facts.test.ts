import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractPriceFor, seedDemoContracts } from "@/lib/contracts";
import { driverClient } from "@/lib/db/client";
import { insurerFilingWindows } from "@/lib/db/schema";
import { CLAIM_LIMITS } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { submitApiClaim } from "@/lib/submissions";
import { buildClaim } from "@/lib/pipeline/testing/harness";
import { testDatabases } from "@/lib/testing/databases";
import { gatherFacts, scrubClaim } from "./index";

/*
 * The scrubber's facts grow linearly with a claim, never worse (docs/decisions/093): a constant
 * number of queries whatever the number of lines, the patient's other claims matched in SQL, and
 * the work lets other requests in while a claim of the most lines allowed is checked.
 */

const CODES = ["99213", "85025", "80053", "71046", "93000"];
const claimOf = (lines: number, day?: string) => {
  const claim = buildClaim({ use: "claim", items: Array.from({ length: lines }, (_, i) => ({ code: CODES[i % CODES.length]!, price: 10 + (i % 7) })) }) as { item: { servicedDate: string }[] };
  if (day) for (const item of claim.item) item.servicedDate = day;
  return { ...claim, identifier: [{ system: "https://his.example/claims", value: randomUUID() }] } as Record<string, unknown>;
};

describe.each(testDatabases().slice(0, 1))("scrubber facts on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  const subject = (claim: Record<string, unknown>) => ({ kind: "claim" as const, patientNationalId: "1000000001", insurerId: "payer-rimal", claim });
  const submit = (claim: Record<string, unknown>) =>
    submitApiClaim({ db: database.db, now: new Date(), channel: "exchange-api", createdBy: "org:facts", audit: { actor: { kind: "api", id: "facts", name: "Test client" }, action: "exchange.claim.submit" } }, claim, { providerOrgId: "clinic-001", allowSandboxTestIds: true, prefix: "Claim", requireIdentifier: true });

  /** Runs `work` and counts the statements the driver was sent meanwhile. */
  async function counted<T>(work: () => Promise<T>): Promise<{ value: T; queries: number }> {
    const client = driverClient<{ query: (...args: unknown[]) => Promise<unknown> }>(database.db)!;
    const original = client.query;
    let queries = 0;
    client.query = function (this: unknown, ...args: unknown[]) {
      queries++;
      return original.apply(this, args);
    };
    try {
      return { value: await work(), queries };
    } finally {
      client.query = original;
    }
  }

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    await seedDemoContracts(database.db);
    // The patient already has a claim of the most lines allowed (what the report's attacker left behind).
    expect((await submit(claimOf(CLAIM_LIMITS.lines, "2026-01-05"))).status).toBe(202);
  }, 120_000);
  afterAll(async () => database?.dispose());

  it("reads a claim's facts in the same number of queries for 1 line and for the most lines allowed", async () => {
    const one = await counted(() => gatherFacts(database.db, subject(claimOf(1)), new Date()));
    const many = await counted(() => gatherFacts(database.db, subject(claimOf(CLAIM_LIMITS.lines)), new Date()));
    expect(many.value.items).toHaveLength(CLAIM_LIMITS.lines);
    expect(many.queries).toBe(one.queries);
    expect(many.queries).toBeLessThanOrEqual(8);
    // Each line still gets the price the one-service lookup gives (one query for all of them).
    for (const item of many.value.items.slice(0, CODES.length)) {
      const single = await contractPriceFor(database.db, { insurerId: "payer-rimal", system: item.system, code: item.code, date: item.servicedDate });
      expect(item.contract?.priceMinor, item.code).toBe(single?.priceMinor);
    }
    expect(many.value.items.filter((i) => i.contract).length).toBeGreaterThan(0);
  }, 60_000);

  it("reads the payer's filing window from its settings (lib/deadlines' read, handed down by the composition)", async () => {
    await database.db.delete(insurerFilingWindows).where(eq(insurerFilingWindows.insurerId, "payer-rimal"));
    expect((await gatherFacts(database.db, subject(claimOf(1)), new Date())).filingDays).toBeUndefined();
    await database.db.insert(insurerFilingWindows).values({ insurerId: "payer-rimal", submissionDays: 45, resubmissionDays: 30 });
    expect((await gatherFacts(database.db, subject(claimOf(1)), new Date())).filingDays).toBe(45);
    await database.db.delete(insurerFilingWindows).where(eq(insurerFilingWindows.insurerId, "payer-rimal"));
  }, 60_000);

  it("finds services already claimed for the patient on the same day (in SQL), and only those", async () => {
    const sameDay = await gatherFacts(database.db, subject(claimOf(3, "2026-01-05")), new Date());
    expect(sameDay.items.map((i) => i.alreadyClaimed ?? false)).toEqual([true, true, true]);
    const otherDay = await gatherFacts(database.db, subject(claimOf(3, "2026-01-06")), new Date());
    expect(otherDay.items.some((i) => i.alreadyClaimed)).toBe(false);
    // Another patient's claims never count.
    const other = await gatherFacts(database.db, { ...subject(claimOf(3, "2026-01-05")), patientNationalId: "1000000002" }, new Date());
    expect(other.items.some((i) => i.alreadyClaimed)).toBe(false);
  }, 60_000);

  it("lets other requests in while a claim of the most lines allowed is checked (event loop and database)", async () => {
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 5);
    let reads = 0;
    let running = true;
    // Another user's reads, one after the other, while the check runs.
    const reader = (async () => {
      while (running) {
        await database.db.execute(sql`select 1`);
        reads++;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const started = performance.now();
    const result = await scrubClaim(database.db, subject(claimOf(CLAIM_LIMITS.lines, "2026-01-05")), new Date());
    const took = performance.now() - started;
    running = false;
    await reader;
    clearInterval(timer);
    expect(result.findings.some((f) => f.rule === "duplicate-service" || f.code.length > 0)).toBe(true);
    // Generous bounds: the old code (a query per line, a microtask chain) held the loop for the whole check, and no read got through.
    expect(reads, `reads during a ${Math.round(took)} ms check`).toBeGreaterThanOrEqual(3);
    expect(worstGap, `longest event-loop stall during a ${Math.round(took)} ms check`).toBeLessThan(Math.max(1_000, took * 0.6));
  }, 60_000);
});
