import type { Claim, MedicationRequest } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { buildPrescription, prescriptionReference, type PrescriptionLineInput } from "./prescription";
import { buildClaim } from "./claim";
import { EXTENSIONS } from "../nphies/extensions";
import { SYSTEMS } from "../nphies/terminology";
import { checkMessage } from "../nphies/rules/check";
import { DEMO_BASE, DEMO_PARTIES } from "../nphies/assemble/demo";
import { assembleMessage } from "../nphies/assemble/message";
import { r4Problems } from "../messages/r4-schema.test-support";

const at = new Date("2026-11-25T09:00:00Z");
const scientific: PrescriptionLineInput = { medicine: { by: "scientific", code: "XSC-0001" }, strength: "500 mg", dose: { value: 1, unit: "tablet" }, frequency: "3/d", durationDays: 10, refills: 2, quantity: 1 };
const gtin: PrescriptionLineInput = { medicine: { by: "gtin", code: "06280000000102", absenceReason: "brand-required" }, strength: "500 mg", dose: { value: 1, unit: "capsule" }, frequency: "2/d", durationDays: 7, refills: 0, quantity: 1 };

function prescription(lines: PrescriptionLineInput[] = [scientific, gtin]) {
  return buildPrescription({
    identifier: { system: `${DEMO_BASE}/claim-id`, value: "RX-0001" },
    nationalId: DEMO_PARTIES.patient.id,
    coverageRef: DEMO_PARTIES.coverage.id,
    providerOrgId: DEMO_PARTIES.provider.id,
    created: at,
    diagnoses: ["J06.9"],
    prescriber: { practitionerId: "pract-1", specialty: "08.00", license: "PRACT-0001" },
    lines,
  }).claim;
}

function message(claim: Claim) {
  const built = assembleMessage({ providerLicense: "PR-CLINIC-001", sourceEndpoint: DEMO_BASE, timestamp: at, bundleId: "0b9f3a52-6a43-4c57-9d43-0f3c1d2e4a01", headerId: "0b9f3a52-6a43-4c57-9d43-0f3c1d2e4a02", event: "prescriber-request", focus: { ...claim, id: "c1" }, parties: DEMO_PARTIES, destination: { payerLicense: "INS-1" } });
  return built.bundle;
}

const ext = (list: { url: string }[] | undefined, url: string) => list?.find((e) => e.url === url) as Record<string, unknown> | undefined;

describe("a prescription sent for verification (guide 7.11, 9.6)", () => {
  it("the builder writes a pharmacy predetermination: each line its medicine, strength, GTIN justification and MedicationRequest with dose, frequency, duration and refills", () => {
    const claim = prescription();
    expect(claim).toMatchObject({ use: "predetermination", type: { coding: [{ code: "pharmacy" }] }, subType: { coding: [{ code: "op" }] } });
    expect(claim.item![0]!.productOrService.coding![0]).toMatchObject({ system: SYSTEMS.scientificCodes, code: "XSC-0001" });
    expect(claim.item![1]!.productOrService.coding![0]).toMatchObject({ system: SYSTEMS.medicationCodes, code: "06280000000102" });
    expect(ext(claim.item![0]!.extension, EXTENSIONS.absenceOfScientificCode)).toBeUndefined();
    expect(ext(claim.item![1]!.extension, EXTENSIONS.absenceOfScientificCode)).toMatchObject({ valueCodeableConcept: { coding: [{ system: SYSTEMS.absenceOfScientificCode, code: "brand-required" }] } });
    expect(ext(claim.item![0]!.extension, EXTENSIONS.strength)).toEqual({ url: EXTENSIONS.strength, valueString: "500 mg" });
    const mr = claim.contained![0] as MedicationRequest;
    expect(mr.dosageInstruction![0]!.timing!.repeat).toMatchObject({ count: 2, frequency: 3, period: 1, periodUnit: "d", boundsDuration: { value: 10 } });
    expect(mr.dosageInstruction![0]!.doseAndRate![0]!.doseQuantity).toEqual({ value: 1, unit: "tablet" });
    expect(() => prescription([{ ...scientific, refills: -1 }])).toThrow(/refills/);
  });

  it("the assembled prescriber-request is valid R4, declares the prescriber profile, carries each MedicationRequest as an entry and passes every rule", () => {
    const bundle = message(prescription());
    expect(r4Problems(bundle)).toEqual([]);
    const claim = bundle.entry!.find((e) => e.resource?.resourceType === "Claim")!.resource as Claim;
    expect(claim.meta?.profile?.[0]).toMatch(/StructureDefinition\/prescriber-priorauth/);
    expect(claim.contained).toBeUndefined();
    const requests = bundle.entry!.filter((e) => e.resource?.resourceType === "MedicationRequest").map((e) => e.resource as MedicationRequest);
    expect(requests).toHaveLength(2);
    expect(ext(claim.item![0]!.extension, EXTENSIONS.prescription)).toEqual({ url: EXTENSIONS.prescription, valueReference: { reference: `MedicationRequest/${requests[0]!.id}` } });
    expect(checkMessage(bundle, { today: new Date("2026-11-25T12:00:00Z") }).findings).toEqual([]);
  });

  it("the rules name what a prescription lacks: a line's MedicationRequest, its refills, a GTIN's justification, a medicine code", () => {
    const codes = (bundle: unknown) => checkMessage(bundle, { today: new Date("2026-11-25T12:00:00Z") }).findings.map((f) => [f.code, f.expression]);
    const noReason = prescription();
    noReason.item![1]!.extension = noReason.item![1]!.extension!.filter((e) => e.url !== EXTENSIONS.absenceOfScientificCode);
    expect(codes(message(noReason))).toContainEqual(["BV-90052", "Bundle.entry[1].resource.item[1].extension"]);
    const noCount = prescription();
    delete (noCount.contained![0] as MedicationRequest).dosageInstruction![0]!.timing!.repeat!.frequency;
    expect(codes(message(noCount)).map((c) => c[0])).toContain("BV-90053");
    // A line may go without its MedicationRequest; one that names it names an entry of that type.
    const noLink = prescription();
    noLink.item![0]!.extension = noLink.item![0]!.extension!.filter((e) => e.url !== EXTENSIONS.prescription);
    expect(codes(message(noLink)).map((c) => c[0])).not.toContain("BV-90050");
    const badLink = prescription();
    badLink.item![0]!.extension = badLink.item![0]!.extension!.map((e) => (e.url === EXTENSIONS.prescription ? { url: e.url, valueReference: { reference: "MedicationRequest/nowhere" } } : e));
    expect(codes(message(badLink))).toContainEqual(["BV-90050", "Bundle.entry[1].resource.item[0].extension"]);
    const cpt = prescription();
    cpt.item![0]!.productOrService = { coding: [{ system: SYSTEMS.services, code: "SVC-0101" }] };
    expect(codes(message(cpt))).toContainEqual(["BV-90051", "Bundle.entry[1].resource.item[0].productOrService"]);
  });

  it("a pharmacy claim names the verified prescription and, when the pharmacist dispensed another medicine, what was prescribed, why and what the substitute is", () => {
    const claim = buildClaim({
      use: "claim",
      nationalId: "1000000001",
      coverageRef: "cov-1",
      providerOrgId: "org-1",
      created: at,
      diagnoses: ["J06.9"],
      procedures: [],
      items: [{ system: SYSTEMS.medicationCodes, code: "06280000000101", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 800, substitution: { prescribed: { system: SYSTEMS.scientificCodes, code: "XSC-0003" }, reason: "out-of-stock", substitute: "generic" } }],
      careSetting: { type: "pharmacy", subtype: "op" },
      prescriptionRef: "PA-ABC",
    });
    expect(claim.prescription).toEqual(prescriptionReference("PA-ABC"));
    expect(ext(claim.item![0]!.extension, EXTENSIONS.prescribedMedication)).toMatchObject({ valueCodeableConcept: { coding: [{ system: SYSTEMS.scientificCodes, code: "XSC-0003" }] } });
    expect(ext(claim.item![0]!.extension, EXTENSIONS.pharmacistSelectionReason)).toMatchObject({ valueCodeableConcept: { coding: [{ code: "out-of-stock" }] } });
    expect(ext(claim.item![0]!.extension, EXTENSIONS.pharmacistSubstitute)).toMatchObject({ valueCodeableConcept: { coding: [{ code: "generic" }] } });
  });
});
