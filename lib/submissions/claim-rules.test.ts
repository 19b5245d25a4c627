import { describe, expect, it } from "vitest";
import { CODE_SYSTEMS, nphies } from "@/lib/fhir";
import { checkClaim } from "./claim-rules";

/*
 * The one validation every intake shares (docs/decisions/129): checkClaim parses a Claim's FHIR
 * structure and asks it the exchange's rules; only what passes becomes a CheckedClaim, and it is
 * the Claim as given (never the schema's output, which keeps only the elements it models).
 */
const S = nphies.SYSTEMS;

function claim(overrides: Record<string, unknown> = {}) {
  return {
    resourceType: "Claim",
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] },
    subType: { coding: [{ system: S.claimSubtype, code: "op" }] },
    use: "claim",
    patient: { reference: "Patient/1000000001" },
    created: "2026-11-24T09:00:00Z",
    priority: { coding: [{ code: "normal" }] },
    provider: { reference: "Organization/clinic-001" },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
    item: [{ sequence: 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] }, servicedDate: "2026-11-24", quantity: { value: 1 }, unitPrice: { value: 250, currency: "SAR" } }],
    ...overrides,
  };
}

describe("checkClaim — the one gate of the intake", () => {
  it("passes a Claim that fits and hands back the very object it was given, unknown elements kept", () => {
    const given = { ...claim(), someLaterElement: { kept: true } };
    const checked = checkClaim(given, { protocol: "rest" });
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.claim).toBe(given);
  });

  it("refuses a Claim the FHIR structure refuses, naming the element", () => {
    const { patient: _patient, ...noPatient } = claim();
    const checked = checkClaim(noPatient, { protocol: "rest" });
    expect(checked).toMatchObject({ ok: false, problem: { reason: "structure", path: ["patient"] } });
  });

  it("asks the exchange's rules: in messaging a procedure list and CPT lines are refused, the spec's REST takes them", () => {
    const withProcedure = claim({ procedure: [{ sequence: 1, procedureCodeableConcept: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "47562" }] } }] });
    expect(checkClaim(withProcedure, { protocol: "rest" }).ok).toBe(true);
    expect(checkClaim(withProcedure, { protocol: "messaging" })).toMatchObject({ ok: false, problem: { reason: "care_setting", path: ["procedure"] } });
  });

  it("refuses a claim type the exchange does not have and a newborn's weight in grams", () => {
    expect(checkClaim(claim({ type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "veterinary" }] } }), { protocol: "rest" })).toMatchObject({ ok: false, problem: { reason: "care_setting", path: ["type"] } });
    const grams = claim({ supportingInfo: [{ sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "birth-weight" }] }, valueQuantity: { value: 3200, system: S.ucum, code: "g" } }] });
    expect(checkClaim(grams, { protocol: "rest" })).toMatchObject({ ok: false, problem: { reason: "newborn", path: ["supportingInfo", 0, "valueQuantity"] } });
  });

  it("refuses a total the row cannot hold", () => {
    const huge = claim({ item: [{ sequence: 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] }, servicedDate: "2026-11-24", quantity: { value: 1000 }, unitPrice: { value: 90_000_000, currency: "SAR" } }] });
    expect(checkClaim(huge, { protocol: "rest" })).toMatchObject({ ok: false, problem: { reason: "total" } });
  });

  it("takes a prescription's contained MedicationRequest (use predetermination), and refuses it in a claim", () => {
    const request = { resourceType: "MedicationRequest", id: "rx-1", status: "active", intent: "order", subject: { reference: "Patient/1000000001" } };
    const prescription = claim({ use: "predetermination", type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "pharmacy" }] }, contained: [request] });
    expect(checkClaim(prescription, { protocol: "messaging" }).ok).toBe(true);
    expect(checkClaim({ ...prescription, use: "claim" }, { protocol: "rest" })).toMatchObject({ ok: false, problem: { reason: "structure" } });
  });
});
