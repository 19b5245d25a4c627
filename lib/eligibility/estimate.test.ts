import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimLineShares, seedDemoContracts } from "@/lib/contracts";
import { eligibilityChecks, patients } from "@/lib/db";
import { readCoverageEligibilityResponse } from "@/lib/fhir";
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
});
