import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { auditEvents, contractPrices, coverages, patients } from "@/lib/db/schema";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { testDatabases } from "@/lib/testing/databases";
import { eq, ne } from "drizzle-orm";
import { contractPriceFor, importContracts, listContractPrices, seedDemoContracts } from "./store";
import { answerCovers, contractLinePrices, liveClaimShares } from "./claim-shares";

const caller: Caller = { actor: { kind: "user", id: "admin-1", email: "admin@clinic.example", roles: ["admin"] }, userId: "admin-1" };
const HEADER = "insurer,network,class,system,code,price,effective_from,effective_to,package,includes,authorization";

describe.each(testDatabases())("payer contracts on $name (docs/decisions/089)", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("seeds the demo contract file once and prices a line from the version of its service date", async () => {
    expect(await seedDemoContracts(database.db)).toBe(true);
    expect(await seedDemoContracts(database.db)).toBe(false);
    const lines = fs.readFileSync("contracts/demo-contracts.csv", "utf8").split("\n").filter((l) => /^payer-/.test(l));
    expect((await database.db.select().from(contractPrices)).length).toBe(lines.length);
    const q = { insurerId: "payer-rimal", system: "cpt", code: "99213" };
    expect((await contractPriceFor(database.db, { ...q, date: "2025-12-31" }))!.priceMinor).toBe(23_000);
    expect((await contractPriceFor(database.db, { ...q, date: "2026-01-01" }))!.priceMinor).toBe(25_000);
    expect((await contractPriceFor(database.db, { insurerId: "payer-wadi", system: "cpt", code: "99213", date: "2026-01-01" }))!.priceMinor).toBe(22_500);
  });

  it("a file with bad lines writes nothing and names each line, an unknown insurer included", async () => {
    const before = await listContractPrices(database.db, "payer-nakheel");
    const csv = [HEADER, "payer-nakheel,,,cpt,99213,1.00,2026-01-01,,no,,no", "payer-nowhere,,,cpt,99213,1.00,2026-01-01,,no,,no", "payer-nakheel,,,cpt,99214,x,2026-01-01,,no,,no"].join("\n");
    const result = await importContracts(database.db, caller, csv, { fileName: "bad.csv" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.line, e.column, e.problem])).toEqual([
      [3, "insurer", "insurer_unknown"],
      [4, "price", "price_invalid"],
    ]);
    expect(await listContractPrices(database.db, "payer-nakheel")).toEqual(before);
    const audits = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "contracts.import"));
    expect(audits.some((a) => a.outcome === "failure")).toBe(true);
  });

  it("shows the diff (dry run writes nothing) and then applies it as the insurer's whole list", async () => {
    const csv = [
      HEADER,
      "payer-nakheel,,,cpt,99213,240.00,2020-01-01,,no,,no", // was 237.50: changed
      "payer-nakheel,,,cpt,99214,332.50,2020-01-01,,no,,no", // unchanged
      "payer-nakheel,,,cpt,99215,400.00,2026-01-01,,no,,no", // added
    ].join("\n");
    const dry = await importContracts(database.db, caller, csv, { dryRun: true });
    expect(dry.ok && dry.applied).toBe(false);
    if (!dry.ok) throw new Error("expected a valid file");
    expect(dry.diff.added.map((c) => c.code)).toEqual(["99215"]);
    expect(dry.diff.changed.map((c) => [c.code, c.before!.priceMinor, c.after!.priceMinor])).toEqual([["99213", 23_750, 24_000]]);
    expect(dry.diff.unchanged).toBe(1);
    // The demo file's Nakheel list: 21 CPT rows and the 37 demo codes of the exchange's own lists.
    expect(dry.diff.removed.length).toBe(19 + 37);
    expect((await listContractPrices(database.db, "payer-nakheel")).length).toBe(21 + 37);

    const applied = await importContracts(database.db, caller, csv);
    expect(applied.ok && applied.applied).toBe(true);
    expect((await listContractPrices(database.db, "payer-nakheel")).map((r) => [r.code, r.priceMinor])).toEqual([
      ["99213", 24_000],
      ["99214", 33_250],
      ["99215", 40_000],
    ]);
    // Other insurers' lists are untouched.
    expect((await listContractPrices(database.db, "payer-rimal")).length).toBeGreaterThan(20);
  });

  it("prices a form's lines for the chosen coverage on each line's date, only for the coverage's own patient (decision 123)", async () => {
    const [cov] = await database.db.select({ id: coverages.id, patientId: coverages.patientId }).from(coverages).where(eq(coverages.insurerId, "payer-rimal")).limit(1);
    expect(cov).toBeDefined();
    const lines = [
      { index: 0, system: "", code: "99213", servicedDate: "2025-12-31" },
      { index: 1, system: "cpt", code: "99213", servicedDate: "2026-01-01" },
      { index: 2, system: "", code: "00000", servicedDate: "2026-01-01" }, // the contract does not price it
      { index: 3, system: "", code: "73030", servicedDate: "2026-03-01" },
    ];
    expect(await contractLinePrices(database.db, { patientId: cov!.patientId, coverageId: cov!.id, lines })).toEqual([
      { index: 0, priceMinor: 23_000 },
      { index: 1, priceMinor: 25_000 },
      { index: 3, priceMinor: 15_000 },
    ]);
    const [other] = await database.db.select({ id: patients.id }).from(patients).where(ne(patients.id, cov!.patientId)).limit(1);
    expect(await contractLinePrices(database.db, { patientId: other!.id, coverageId: cov!.id, lines })).toBeUndefined();
  });

  it("without an eligibility answer every line's patient share is unknown, not 0 (decision 123)", async () => {
    const [cov] = await database.db.select({ id: coverages.id, patientId: coverages.patientId }).from(coverages).where(eq(coverages.insurerId, "payer-rimal")).limit(1);
    const shares = await liveClaimShares(database.db, { patientId: cov!.patientId, coverageId: cov!.id, items: [{ index: 0, code: "73030", servicedDate: "2026-03-01", quantity: 1, unitPriceMinor: 15_000 }] });
    expect(shares?.unknownLines).toEqual([0]);
  });

  it("an eligibility answer covers the dates of its benefit period, or the date it was asked for when it gives none", () => {
    const year = answerCovers({ start: "2026-01-01", end: "2026-12-31" }, "2026-03-01");
    expect([year("2025-12-31"), year("2026-01-01"), year("2026-12-31"), year("2027-01-01")]).toEqual([false, true, true, false]);
    const open = answerCovers({ start: "2026-01-01" }, "2026-03-01");
    expect([open("2025-12-31"), open("2030-01-01")]).toEqual([false, true]);
    const day = answerCovers(undefined, "2026-03-01");
    expect([day("2026-03-01"), day("2026-03-02")]).toEqual([true, false]);
  });
});
