import { describe, expect, it } from "vitest";
import { CODE_SYSTEMS, NATIONAL_EXCHANGE } from "@/lib/fhir";
import { readDecision } from "./decision";

const cat = (code: string, system: string = CODE_SYSTEMS.adjudication) => ({ coding: [{ system, code }] });
const sar = (value: number) => ({ value, currency: "SAR" });
const outcome = (code: string) => ({ url: NATIONAL_EXCHANGE.adjudicationOutcomeExtension, valueCodeableConcept: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationOutcomeSystem, code }] } });

const claim = {
  item: [
    { sequence: 1, productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99214" }] }, servicedDate: "2026-11-20", quantity: { value: 1 } },
    { sequence: 2, productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99213" }] }, servicedDate: "2026-11-20", quantity: { value: 2 } },
  ],
};

/** A national-style answer: identifier-only request and insurer, outcome extensions, an added line, notes. */
const response = {
  resourceType: "ClaimResponse",
  status: "active",
  type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] },
  use: "claim",
  patient: { reference: "https://payer.example/fhir/Patient/1000000001" },
  created: "2026-11-21T10:00:00Z",
  insurer: { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: "7000000101" } },
  request: { identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "c-1" } },
  outcome: "complete",
  extension: [outcome("partial"), { url: "https://payer.example/StructureDefinition/batch", valueString: "B-7" }],
  item: [
    { itemSequence: 1, extension: [outcome("rejected")], noteNumber: [1], adjudication: [{ category: cat("submitted"), amount: sar(400) }, { category: cat("benefit"), reason: { coding: [{ system: "https://platform.example/fhir/CodeSystem/adjudication-reason", code: "price-list" }] }, amount: sar(0) }] },
    {
      itemSequence: 2,
      extension: [outcome("partial")],
      adjudication: [
        { category: cat("submitted"), amount: sar(500) },
        { category: cat("eligible"), amount: sar(500) },
        { category: cat("benefit"), reason: { coding: [{ system: CODE_SYSTEMS.adjudicationReason, code: "ar002" }] }, amount: sar(0) },
      ],
    },
  ],
  addItem: [
    {
      itemSequence: [1],
      extension: [outcome("approved")],
      productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99214", display: "Contracted visit" }] },
      quantity: { value: 1 },
      net: sar(350),
      adjudication: [{ category: cat("eligible"), amount: sar(350) }, { category: cat("copay"), amount: sar(35) }, { category: cat("benefit"), amount: sar(315) }, { category: cat("approved-quantity", NATIONAL_EXCHANGE.adjudicationSystem), value: 1 }],
    },
  ],
  processNote: [{ number: 1, type: "display", text: "Item 1: reduced to the price list", language: { coding: [{ system: "urn:ietf:bcp:47", code: "en" }] } }],
};

describe("readDecision (the reader's view, as the detail pages show it)", () => {
  it("gives one line per item and per added item, joined with the Claim, with exact amounts", () => {
    const d = readDecision(response, claim)!;
    expect(d.decision).toBe("partly-approved");
    expect(d.lines.map((l) => [l.kind, l.sequence, l.code, l.decision, l.outcome])).toEqual([
      ["item", 1, "99214", "denied", "rejected"],
      ["item", 2, "99213", "partly-approved", "partial"],
      ["addItem", undefined, "99214", "approved", "approved"],
    ]);
    const [billed, limited, added] = d.lines;
    expect(billed!.notes.map((n) => n.text)).toEqual(["Item 1: reduced to the price list"]);
    expect(billed!.reasons[0]).toMatchObject({ code: "price-list" });
    expect(limited).toMatchObject({ quantity: 2, servicedDate: "2026-11-20", eligibleMinor: 50_000, benefitMinor: 0, zeroBenefit: true });
    // The payer stated no patient share on these lines: none is shown (decision 098), copay stays copay.
    expect(limited!.shareMinor).toBeUndefined();
    expect(added).toMatchObject({ relatesTo: [1], serviceText: "Contracted visit", approvedQuantity: 1, eligibleMinor: 35_000, copayMinor: 3_500, benefitMinor: 31_500 });
    expect(added!.shareMinor).toBeUndefined();
    // Totals summed exactly over items and added items (no total[] in this answer).
    expect(d.totals).toMatchObject({ submittedMinor: 90_000, eligibleMinor: 85_000, benefitMinor: 31_500 });
    expect(d.response.otherExtensions).toEqual([expect.objectContaining({ url: "https://payer.example/StructureDefinition/batch", value: "B-7" })]);
  });

  it("is undefined without an answer, and for one that is not a valid R4 ClaimResponse", () => {
    expect(readDecision(null, claim)).toBeUndefined();
    expect(readDecision({ resourceType: "ClaimResponse", status: "active" }, claim)).toBeUndefined();
  });
});
