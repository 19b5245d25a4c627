import { describe, expect, it } from "vitest";
import { CODE_SYSTEMS, NATIONAL_EXCHANGE, readClaimResponse } from "@/lib/fhir";
import { outcomeOfView, statusLabel } from "@/lib/i18n";
import { readDecision, statedTotals } from "./decision";

/**
 * Five answers shaped as payers on the national exchange write them (guide v2.7 §6.3.10.1, Table 29:
 * the exchange's own categories patientShare, tax, approved-quantity beside HL7's eligible, benefit,
 * copay, deductible; "coPay" as the guide spells it). What the screens, badges and machine APIs show
 * is what the payer stated. Each answer's patient share differs from eligible − benefit, so the old
 * subtraction fails every case here (decision 098).
 */

const hl7 = (code: string) => ({ coding: [{ system: CODE_SYSTEMS.adjudication, code }] });
const ksa = (code: string) => ({ coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code }] });
const sar = (value: number) => ({ value, currency: "SAR" });
const outcome = (code: string) => ({ url: NATIONAL_EXCHANGE.adjudicationOutcomeExtension, valueCodeableConcept: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationOutcomeSystem, code }] } });
const amount = (category: { coding: { system: string; code: string }[] }, value: number) => ({ category, amount: sar(value) });

function answer(use: "claim" | "preauthorization", resourceOutcome: string, items: unknown[], total: unknown[], extra: Record<string, unknown> = {}) {
  return {
    resourceType: "ClaimResponse",
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] },
    use,
    patient: { reference: "https://payer.example/fhir/Patient/1" },
    created: "2026-11-21T10:00:00Z",
    insurer: { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: "7000000101" } },
    request: { identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "c-1" } },
    outcome: "complete",
    extension: [outcome(resourceOutcome)],
    item: items,
    total,
    ...extra,
  };
}

/** Benefit including the payer's VAT: eligible 1,200.00, VAT 180.00, benefit 1,380.00, the patient pays nothing. */
const vatIncluded = answer(
  "claim",
  "approved",
  [{ itemSequence: 1, extension: [outcome("approved")], adjudication: [amount(hl7("eligible"), 1200), amount(ksa("tax"), 180), amount(hl7("copay"), 0), amount(ksa("patientShare"), 0), amount(hl7("benefit"), 1380)] }],
  [amount(hl7("eligible"), 1200), amount(ksa("tax"), 180), amount(ksa("patientShare"), 0), amount(hl7("benefit"), 1380)],
);

/** Eligible stated with VAT (1,725.00 = 1,500.00 + VAT 225.00), copay 0 as the guide spells it ("coPay"): the patient pays nothing. */
const vatCopayZero = answer(
  "claim",
  "approved",
  [{ itemSequence: 1, extension: [outcome("approved")], adjudication: [amount(hl7("eligible"), 1725), amount(ksa("tax"), 225), amount(ksa("coPay"), 0), amount(ksa("patientShare"), 0), amount(hl7("benefit"), 1500)] }],
  [amount(hl7("eligible"), 1725), amount(ksa("tax"), 225), amount(ksa("coPay"), 0), amount(ksa("patientShare"), 0), amount(hl7("benefit"), 1500)],
);

/** Copay 20 % plus VAT on it: eligible 500.00, copay 100.00, the patient's share 115.00 (copay + its VAT), benefit 460.00 (with the payer's VAT). */
const copay = answer(
  "claim",
  "approved",
  [{ itemSequence: 1, extension: [outcome("approved")], adjudication: [amount(hl7("eligible"), 500), amount(hl7("copay"), 100), amount(ksa("tax"), 75), amount(ksa("patientShare"), 115), amount(hl7("benefit"), 460)] }],
  [amount(hl7("eligible"), 500), amount(hl7("copay"), 100), amount(ksa("tax"), 75), amount(ksa("patientShare"), 115), amount(hl7("benefit"), 460)],
);

/** Deductible: eligible 1,850.00, deductible 150.00, copay 35.00, VAT 18.50 on them: the payer states 203.50 (eligible − benefit would be 36.00). */
const deductible = answer(
  "claim",
  "approved",
  [
    {
      itemSequence: 1,
      extension: [outcome("approved")],
      adjudication: [amount(hl7("eligible"), 1850), amount(hl7("deductible"), 150), amount(hl7("copay"), 35), amount(ksa("tax"), 18.5), amount(ksa("patientShare"), 203.5), amount(hl7("benefit"), 1814)],
    },
  ],
  [amount(hl7("eligible"), 1850), amount(hl7("deductible"), 150), amount(hl7("copay"), 35), amount(ksa("tax"), 18.5), amount(ksa("patientShare"), 203.5), amount(hl7("benefit"), 1814)],
);

/** Partial: line 1 rejected (no share stated), line 2 eligible 400.00 with VAT 60.00, share 46.00, benefit 414.00. */
const partial = answer(
  "claim",
  "partial",
  [
    { itemSequence: 1, extension: [outcome("rejected")], adjudication: [amount(hl7("eligible"), 0), amount(hl7("benefit"), 0)] },
    { itemSequence: 2, extension: [outcome("approved")], adjudication: [amount(hl7("eligible"), 400), amount(ksa("tax"), 60), amount(hl7("copay"), 40), amount(ksa("patientShare"), 46), amount(hl7("benefit"), 414)] },
  ],
  [amount(hl7("eligible"), 400), amount(ksa("tax"), 60), amount(hl7("copay"), 40), amount(ksa("patientShare"), 46), amount(hl7("benefit"), 414)],
);

/**
 * An approved authorization: the payer approves the quantity and states the line's benefit with VAT
 * (eligible 400.00, benefit 480.00: eligible − benefit would be −80.00); its total states a benefit
 * of 0.00 (nothing is paid on an authorization) — the badge must still say approved.
 */
const approvedAuthorization = answer(
  "preauthorization",
  "approved",
  [
    {
      itemSequence: 1,
      extension: [outcome("approved")],
      adjudication: [amount(hl7("eligible"), 400), amount(ksa("tax"), 80), amount(ksa("patientShare"), 0), amount(hl7("benefit"), 480), { category: ksa("approved-quantity"), value: 1 }],
    },
  ],
  [amount(hl7("benefit"), 0), amount(ksa("patientShare"), 0)],
  { preAuthRef: "PA-778", preAuthPeriod: { start: "2026-11-21", end: "2026-12-21" } },
);

const cases = [
  { name: "VAT in the benefit", response: vatIncluded, stated: { line: [0], total: 0, tax: 18_000, copay: 0 } },
  { name: "VAT in eligible, coPay 0", response: vatCopayZero, stated: { line: [0], total: 0, tax: 22_500, copay: 0 } },
  { name: "copay with its VAT", response: copay, stated: { line: [11_500], total: 11_500, tax: 7_500, copay: 10_000 } },
  { name: "deductible", response: deductible, stated: { line: [20_350], total: 20_350, tax: 1_850, copay: 3_500 } },
  { name: "partial", response: partial, stated: { line: [undefined, 4_600], total: 4_600, tax: 6_000, copay: 4_000 } },
  { name: "approved authorization", response: approvedAuthorization, stated: { line: [0], total: 0, tax: 8_000, copay: undefined } },
] as const;

describe("amounts as the payer states them (five real-shaped answers and an authorization)", () => {
  for (const c of cases) {
    it(`${c.name}: the patient share shown is the payer's, per line and in total`, () => {
      const d = readDecision(c.response, null)!;
      expect(d.lines.map((l) => l.shareMinor)).toEqual(c.stated.line);
      expect(d.totals.shareMinor).toBe(c.stated.total);
      expect(d.totals.taxMinor).toBe(c.stated.tax);
      expect(d.totals.copayMinor).toBe(c.stated.copay);
      // Never eligible − benefit: every case here would show another figure by subtraction.
      const subtracted = d.totals.eligibleMinor !== undefined && d.totals.benefitMinor !== undefined ? d.totals.eligibleMinor - d.totals.benefitMinor : undefined;
      expect(subtracted).not.toBe(c.stated.total);
      // The machine APIs and payments read the same figures, from the stored view or the raw answer.
      const view = readClaimResponse(c.response).view;
      expect(statedTotals(c.response, view as never)).toEqual(d.totals);
      expect(statedTotals(c.response)).toEqual(d.totals);
    });
  }

  it("a share the payer did not state is absent (shown 'not stated'), not worked out", () => {
    const unstated = answer("claim", "approved", [{ itemSequence: 1, adjudication: [amount(hl7("eligible"), 300), amount(hl7("benefit"), 240)] }], [amount(hl7("eligible"), 300), amount(hl7("benefit"), 240)]);
    const d = readDecision(unstated, null)!;
    expect(d.lines[0]!.shareMinor).toBeUndefined();
    expect(d.totals.shareMinor).toBeUndefined();
    expect(d.totals.copayMinor).toBeUndefined();
    // An unstated benefit is not "nothing paid" either.
    const noBenefit = readDecision(answer("claim", "approved", [{ itemSequence: 1, adjudication: [amount(hl7("eligible"), 300)] }], []), null)!;
    expect(noBenefit.lines[0]!.zeroBenefit).toBe(false);
  });

  it("badges follow the decision: an approved authorization whose total states 0.00 is approved, not 'No benefit granted'", () => {
    const view = readClaimResponse(approvedAuthorization).view;
    expect(statusLabel("preauthorization", "complete", outcomeOfView(view)).word).toBe("complete");
    // Also when only a line pays (no resource-level outcome): a benefit above 0 on a line is a grant.
    const { extension: _ignored, ...withoutOutcome } = approvedAuthorization;
    void _ignored;
    expect(statusLabel("preauthorization", "complete", outcomeOfView(readClaimResponse(withoutOutcome).view)).word).toBe("complete");
    // A decision that really pays nothing still says so.
    const nothing = answer("preauthorization", "partial", [{ itemSequence: 1, extension: [outcome("partial")], adjudication: [amount(hl7("eligible"), 400), amount(hl7("benefit"), 0)] }], [amount(hl7("benefit"), 0)]);
    expect(statusLabel("preauthorization", "partial", outcomeOfView(readClaimResponse(nothing).view)).word).toBe("zeroBenefit");
  });
});
