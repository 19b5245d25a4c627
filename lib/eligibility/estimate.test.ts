import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimLineShares, liveClaimShares, seedDemoContracts } from "@/lib/contracts";
import { coverages, eligibilityChecks, patients } from "@/lib/db";
import { nphies, readCoverageEligibilityResponse } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { testDatabases } from "@/lib/testing/databases";
import { estimateVisit } from "./estimate";

const HL7 = "http://terminology.hl7.org/CodeSystem";
const benefitItem = (category: string, benefit: unknown[]) => ({ category: { coding: [{ system: `${HL7}/ex-benefitcategory`, code: category }] }, benefit });
const type = (code: string, system = `${HL7}/benefit-type`) => ({ coding: [{ system, code }] });

/** An in-force answer for the resident: consultations 10 % copay; 500.00 deductible with 420.00 met; 5,000.00 out-of-pocket maximum with 420.00 paid. */
const answer = {
  resourceType: "CoverageEligibilityResponse",
  status: "active",
  purpose: ["benefits", "validation"],
  patient: { reference: "Patient/2087654311" },
  created: "2026-03-01T08:00:00Z",
  request: { reference: "CoverageEligibilityRequest/1" },
  outcome: "complete",
  insurer: { reference: "Organization/payer-rimal" },
  insurance: [
    {
      coverage: { reference: "Coverage/cov-2087654311" },
      inforce: true,
      item: [
        benefitItem("3", [
          { type: type("benefit"), allowedMoney: { value: 4000, currency: "SAR" }, usedMoney: { value: 0, currency: "SAR" } },
          { type: type("copay-percent"), allowedUnsignedInt: 10 },
        ]),
        benefitItem("5", [
          { type: type("benefit"), allowedMoney: { value: 1000, currency: "SAR" }, usedMoney: { value: 0, currency: "SAR" } },
          { type: type("copay-percent"), allowedUnsignedInt: 20 },
        ]),
        benefitItem("30", [
          { type: type("deductible"), allowedMoney: { value: 500, currency: "SAR" }, usedMoney: { value: 420, currency: "SAR" } },
          { type: type("out-of-pocket-maximum", "https://platform.example/fhir/CodeSystem/benefit-type"), allowedMoney: { value: 5000, currency: "SAR" }, usedMoney: { value: 420, currency: "SAR" } },
        ]),
      ],
    },
  ],
};

describe.each(testDatabases())("the estimate and the claim's shares with a deductible on $name (docs/decisions/091)", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let checkId: string;
  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    await seedDemoContracts(database.db);
    const [omar] = await database.db.select({ id: patients.id }).from(patients).where(eq(patients.nationalId, "2087654311"));
    const today = new Date().toISOString().slice(0, 10);
    const [row] = await database.db
      .insert(eligibilityChecks)
      .values({
        patientId: omar!.id,
        insurerId: "payer-rimal",
        servicedDate: today,
        purposes: ["benefits", "validation"],
        requestId: randomUUID(),
        identifierValue: randomUUID(),
        request: {},
        response: answer,
        responseView: readCoverageEligibilityResponse(answer).view as unknown as Record<string, unknown>,
        outcome: "in_force",
        inforce: true,
        checkedAt: new Date(),
      })
      .returning({ id: eligibilityChecks.id });
    checkId = row!.id;
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("the estimate takes the 80.00 left of the deductible first, then the copay; says what is left before and after; names the Iqama", async () => {
    const estimate = (await estimateVisit(database.db, checkId, [{ code: "99214", quantity: 1 }, { code: "99213", quantity: 1 }]))!;
    // 99214 at Rimal's 350.00: 80.00 deductible + 10 % of 270.00 = 107.00, VAT 15 % on it 16.05.
    // 99213 at 250.00: 10 % = 25.00.
    expect(estimate.lines.map((l) => [l.code, l.deductibleMinor, l.patientMinor, l.payerMinor, l.patientVatMinor])).toEqual([
      ["99214", 8_000, 10_700, 24_300, 1_605],
      ["99213", 0, 2_500, 22_500, 375],
    ]);
    expect(estimate.deductible).toEqual({ limitMinor: 50_000, leftMinor: 8_000, leftAfterMinor: 0 });
    expect(estimate.outOfPocket).toEqual({ limitMinor: 500_000, leftMinor: 458_000, leftAfterMinor: 458_000 - 13_200 });
    expect(estimate.patient).toEqual({ documentNumber: "2087654311", documentType: "iqama" });
    expect(estimate.vatPercent).toBe(15);
  });

  it("the claim's line shares (the form's live shares and the submit) read the same answer", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const shares = await claimLineShares(database.db, { nationalId: "2087654311", insurerId: "payer-rimal", items: [{ code: "99214", servicedDate: today, quantity: 1, unitPriceMinor: 35_000 }] });
    expect(shares.map((s) => [s.deductibleMinor, s.patientMinor, s.vatMinor])).toEqual([[8_000, 10_700, 5_250]]);
  });

  it("the form's live shares: the same shares for the patient's own coverage, with each line's position; another patient's coverage reads nothing", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const [omar] = await database.db.select({ id: patients.id }).from(patients).where(eq(patients.nationalId, "2087654311"));
    const [own] = await database.db.select({ id: coverages.id }).from(coverages).where(eq(coverages.patientId, omar!.id));
    const [other] = await database.db.select({ id: coverages.id, patientId: coverages.patientId }).from(coverages).innerJoin(patients, eq(patients.id, coverages.patientId)).where(eq(patients.nationalId, "1000000001"));
    const items = [{ code: "99214", servicedDate: today, quantity: 1, unitPriceMinor: 35_000, index: 2 }];
    const live = (await liveClaimShares(database.db, { patientId: omar!.id, coverageId: own!.id, items }))!;
    expect(live.lines.map((l) => [l.index, l.deductibleMinor, l.patientMinor, l.vatMinor])).toEqual([[2, 8_000, 10_700, 5_250]]);
    expect(live).toMatchObject({ vatPercent: 15, answered: true, totals: { patientMinor: 10_700, payerMinor: 24_300 } });
    // Omar's id with another patient's coverage (and the other way round): nothing.
    expect(await liveClaimShares(database.db, { patientId: omar!.id, coverageId: other!.id, items })).toBeUndefined();
    expect(await liveClaimShares(database.db, { patientId: other!.patientId, coverageId: own!.id, items })).toBeUndefined();
  });

  it("estimates the exchange's own codes: each priced from its contract row, paid from its code's benefit category", async () => {
    const estimate = (await estimateVisit(database.db, checkId, [
      { system: nphies.SYSTEMS.services, code: "SVC-0102", quantity: 1 },
      { system: "laboratory", code: "LAB-4001", quantity: 2 },
      { system: nphies.SYSTEMS.imaging, code: "IMG-3003", quantity: 1 },
    ]))!;
    // SVC-0102 at Rimal's 300.00 (consultations, 10 %): 80.00 deductible + 10 % of 220.00 = 102.00, VAT 15.30.
    // LAB-4001 at 60.00 × 2 (laboratory, 20 %): the deductible is met, 20 % of 120.00 = 24.00, VAT 3.60.
    // IMG-3003 at 2,500.00: MRI, a category this plan lacks (the patient pays all); the contract asks an authorization.
    expect(estimate.lines.map((l) => [l.system, l.code, l.unitPriceMinor, l.category, l.deductibleMinor, l.patientMinor, l.payerMinor, l.patientVatMinor])).toEqual([
      [nphies.SYSTEMS.services, "SVC-0102", 30_000, "3", 8_000, 10_200, 19_800, 1_530],
      [nphies.SYSTEMS.laboratory, "LAB-4001", 6_000, "5", 0, 2_400, 9_600, 360],
      [nphies.SYSTEMS.imaging, "IMG-3003", 250_000, "62", 0, 250_000, 0, 37_500],
    ]);
    expect(estimate.lines.map((l) => [l.code, l.authorizationRequired, l.notCovered])).toEqual([
      ["SVC-0102", false, false],
      ["LAB-4001", false, false],
      ["IMG-3003", true, true],
    ]);
    expect(estimate.unpriced).toEqual([]);
    // The same code in CPT's list is not the exchange's: unpriced.
    expect((await estimateVisit(database.db, checkId, [{ code: "SVC-0102", quantity: 1 }]))!.unpriced).toEqual(["SVC-0102"]);
  });

  it("the claim's line shares price each line in its own list (the form sends each line's system)", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const shares = await claimLineShares(database.db, {
      nationalId: "2087654311",
      insurerId: "payer-rimal",
      items: [
        { system: nphies.SYSTEMS.services, code: "SVC-0102", servicedDate: today, quantity: 1, unitPriceMinor: 32_000 },
        { system: nphies.SYSTEMS.laboratory, code: "LAB-4001", servicedDate: today, quantity: 1, unitPriceMinor: 6_000 },
      ],
    });
    // SVC-0102 billed 320.00, its contract 300.00: eligible 300.00 → 80.00 deductible + 22.00; LAB-4001 20 % of 60.00.
    expect(shares.map((s) => [s.code, s.category, s.eligibleMinor, s.deductibleMinor, s.patientMinor, s.payerMinor])).toEqual([
      ["SVC-0102", "3", 30_000, 8_000, 10_200, 19_800],
      ["LAB-4001", "5", 6_000, 0, 1_200, 4_800],
    ]);
  });
});
