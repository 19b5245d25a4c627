import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { CODE_SYSTEMS, nphies } from "@/lib/fhir";
import { validateApiClaim } from "./api-intake";
import * as mds from "@/lib/fhir/mds";

/**
 * The machine APIs (exchange API, gateway /fhir/Claim and agents) take the care setting of a Claim
 * (docs/decisions/083): type and subtype, the setting's code systems, the tooth of oral lines, the
 * care team — and answer a misfit 422 naming the element, before anything is stored.
 */
const rules = { providerOrgId: "clinic-001", allowSandboxTestIds: true, prefix: "Claim", requireIdentifier: true };
const S = nphies.SYSTEMS;

function claim(overrides: Record<string, unknown> = {}, item: Record<string, unknown> = {}) {
  return {
    resourceType: "Claim",
    identifier: [{ system: "https://his.example/claims", value: "C-1" }],
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "oral" }] },
    subType: { coding: [{ system: S.claimSubtype, code: "op" }] },
    use: "claim",
    patient: { reference: "Patient/1000000001" },
    created: "2026-11-24T09:00:00Z",
    priority: { coding: [{ code: "normal" }] },
    careTeam: [{ sequence: 1, provider: { identifier: { system: nphies.LICENSES.practitioner, value: "PRAC-10002" } }, role: { coding: [{ code: "primary" }] }, qualification: { coding: [{ system: S.practiceCodes, code: "22.00" }] } }],
    insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
    item: [{ sequence: 1, productOrService: { coding: [{ system: S.oralHealthOp, code: "ORL-2003" }] }, bodySite: { coding: [{ system: S.fdiOralRegion, code: "16" }] }, quantity: { value: 1 }, unitPrice: { value: 300, currency: "SAR" }, ...item }],
    // The visit's Encounter (the Minimum Data Set, docs/decisions/103): contained, named by extension-encounter.
    contained: [{ resourceType: "Encounter", id: "encounter", status: "finished", class: { system: S.encounterClass, code: "AMB" }, period: { start: "2026-11-24T09:00:00Z" }, extension: [{ url: mds.MDS_EXTENSIONS.serviceEventType, valueCodeableConcept: { coding: [{ system: mds.MDS_SYSTEMS.serviceEventType, code: "ICSE" }] } }] }],
    extension: [{ url: nphies.EXTENSIONS.encounter, valueReference: { reference: "#encounter" } }],
    ...overrides,
  };
}

/** The clinical notes and the investigation result every request carries (decision 104: BV-00752, BV-00803 – BV-00806). */
const RECORDED = [
  ...mds.CLINICAL_NOTE_KEYS.map((note, i) => ({ sequence: 30 + i, category: { coding: [{ system: S.claimInformationCategory, code: note }] }, valueString: "Recorded." })),
  { sequence: 40, category: { coding: [{ system: S.claimInformationCategory, code: "investigation-result" }] }, code: { coding: [{ system: mds.MDS_SYSTEMS.investigationResult, code: "INP" }] } },
];

function refusal(body: unknown): { status: number; path?: string; message: string } {
  try {
    validateApiClaim(body, rules);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, path: error.fields?.[0]?.path, message: error.message };
  }
  throw new Error("accepted");
}

describe("an API Claim's care setting", () => {
  it("keeps what the care setting records: subtype, care team, tooth, extensions", () => {
    const { claim: parsed } = validateApiClaim(claim({ extension: [{ url: nphies.EXTENSIONS.episode, valueIdentifier: { system: "https://his.example/episode", value: "EP-1" } }] }), rules);
    expect(parsed.subType?.coding?.[0]?.code).toBe("op");
    expect(parsed.careTeam?.[0]?.provider.identifier?.value).toBe("PRAC-10002");
    expect(parsed.item?.[0]?.bodySite?.coding?.[0]?.code).toBe("16");
    expect(parsed.extension?.[0]?.valueIdentifier?.value).toBe("EP-1");
  });

  it("keeps taking the spec's claim (institutional, CPT lines, no subtype)", () => {
    const spec = claim({ type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] }, subType: undefined, careTeam: undefined }, { productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99213" }] }, bodySite: undefined });
    expect(validateApiClaim(spec, rules).claim.type.coding?.[0]?.code).toBe("institutional");
  });

  it("refuses CPT lines when the portal speaks the exchange's messaging (the exchange does not take them), 422 before anything is stored", () => {
    const complete = { supportingInfo: [{ sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Headache" } }, ...RECORDED] };
    const spec = claim({ type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] }, ...complete }, { productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99213" }] }, bodySite: undefined });
    let refused: AppError | undefined;
    try {
      validateApiClaim(spec, { ...rules, protocol: "messaging" });
    } catch (error) {
      refused = error as AppError;
    }
    expect(refused?.status).toBe(422);
    expect(refused?.fields?.[0]?.path).toBe("Claim.item[0].productOrService");
    expect(refused?.message).not.toContain(CODE_SYSTEMS.cpt);
    const complaint = { sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Headache" } };
    // With what the Minimum Data Set asks of a professional visit (docs/decisions/103): maternity, vital signs (here their absence reasons) and notes.
    const visit = [
      ...mds.VITAL_SIGN_KEYS.map((sign, i) => ({ sequence: 10 + i, category: { coding: [{ system: S.claimInformationCategory, code: sign }] }, reason: { coding: [{ system: mds.MDS_SYSTEMS.absenceReason(sign), code: "not-applicable" }] } })),
      ...RECORDED,
    ];
    const services = claim({ type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] }, supportingInfo: [complaint, ...visit] }, { productOrService: { coding: [{ system: S.services, code: "SVC-0102" }] }, bodySite: undefined, extension: [{ url: mds.MDS_EXTENSIONS.maternity, valueBoolean: false }] });
    expect(validateApiClaim(services, { ...rules, protocol: "messaging" }).claim.item?.[0]?.productOrService.coding?.[0]?.code).toBe("SVC-0102");
  });

  it.each([
    ["no subtype", { subType: undefined }, "Claim.subType"],
    ["no care team", { careTeam: undefined }, "Claim.careTeam"],
    ["no chief complaint", { supportingInfo: RECORDED }, "Claim.supportingInfo"],
    ["a care team member without speciality", { careTeam: [{ sequence: 1, provider: { identifier: { system: nphies.LICENSES.practitioner, value: "PRAC-10002" } } }] }, "Claim.careTeam[0].qualification"],
  ])("in messaging, what the exchange requires is refused 422 when missing: %s", (_name, overrides, path) => {
    const complaint = { sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Toothache" } };
    const body = claim({ supportingInfo: [complaint, ...RECORDED], ...overrides });
    expect(validateApiClaim(claim({ supportingInfo: [complaint, ...RECORDED] }), { ...rules, protocol: "messaging" }).claim.subType).toBeDefined();
    let refused: AppError | undefined;
    try {
      validateApiClaim(body, { ...rules, protocol: "messaging" });
    } catch (error) {
      refused = error as AppError;
    }
    expect([refused?.status, refused?.fields?.[0]?.path]).toEqual([422, path]);
    // The spec's REST protocol takes the Claim without them.
    expect(validateApiClaim(body, rules).claim.resourceType).toBe("Claim");
  });

  it("in messaging, an inpatient institutional request says how long the stay is (prior authorization) and whether each diagnosis was present on admission: else 422 naming the element", () => {
    const complaint = { sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Chest infection" } };
    const stay = { sequence: 2, category: { coding: [{ system: S.claimInformationCategory, code: "estimated-Length-of-Stay" }] }, valueQuantity: { value: 4, unit: "d", system: S.ucum, code: "d" } };
    const present = { coding: [{ system: S.diagnosisOnAdmission, code: "y" }] };
    const diagnosis = (onAdmission?: unknown) => ({ sequence: 1, diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code: "J18.9" }] }, ...(onAdmission ? { onAdmission } : {}) });
    // What the Minimum Data Set asks of an inpatient stay (docs/decisions/103): its Encounter, maternity, vital signs and notes, each diagnosis's onset.
    const encounter = {
      resourceType: "Encounter",
      id: "encounter",
      status: "in-progress",
      class: { system: S.encounterClass, code: "IMP" },
      period: { start: "2026-11-20T08:00:00Z" },
      extension: [{ url: mds.MDS_EXTENSIONS.serviceEventType, valueCodeableConcept: { coding: [{ system: mds.MDS_SYSTEMS.serviceEventType, code: "ICSE" }] } }],
      hospitalization: { admitSource: { coding: [{ system: mds.MDS_SYSTEMS.admitSource, code: "IA" }] }, extension: [{ url: mds.MDS_EXTENSIONS.admissionSpecialty, valueCodeableConcept: { coding: [{ system: S.practiceCodes, code: "08.00" }] } }] },
    };
    const clinicalInfo = [
      ...mds.VITAL_SIGN_KEYS.map((sign, i) => ({ sequence: 10 + i, category: { coding: [{ system: S.claimInformationCategory, code: sign }] }, reason: { coding: [{ system: mds.MDS_SYSTEMS.absenceReason(sign), code: "not-measured" }] } })),
      ...RECORDED,
    ];
    const onset = [{ url: mds.MDS_EXTENSIONS.conditionOnset, valueCodeableConcept: { coding: [{ system: mds.MDS_SYSTEMS.conditionOnset, code: "PA" }] } }];
    const inpatient = (use: string, extra: { supportingInfo?: unknown[]; diagnosis?: Record<string, unknown>[] }) =>
      claim(
        { type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] }, subType: { coding: [{ system: S.claimSubtype, code: "ip" }] }, use, contained: [encounter], ...extra, supportingInfo: [...(extra.supportingInfo ?? []), ...clinicalInfo], diagnosis: extra.diagnosis?.map((d) => ({ ...d, extension: onset })) },
        { productOrService: { coding: [{ system: S.services, code: "SVC-0301" }] }, bodySite: undefined, extension: [{ url: mds.MDS_EXTENSIONS.maternity, valueBoolean: false }] },
      );
    const messaging = { ...rules, protocol: "messaging" as const };
    const refused = (body: unknown) => {
      try {
        validateApiClaim(body, messaging);
      } catch (error) {
        return [(error as AppError).status, (error as AppError).fields?.[0]?.path];
      }
      return "accepted";
    };
    // Complete: taken, the answer on admission kept for the message.
    const complete = validateApiClaim(inpatient("preauthorization", { supportingInfo: [complaint, stay], diagnosis: [diagnosis(present)] }), messaging).claim;
    expect(complete.diagnosis?.[0]?.onAdmission?.coding?.[0]?.code).toBe("y");
    expect(refused(inpatient("preauthorization", { supportingInfo: [complaint], diagnosis: [diagnosis(present)] }))).toEqual([422, "Claim.supportingInfo"]);
    expect(refused(inpatient("preauthorization", { supportingInfo: [complaint, stay], diagnosis: [diagnosis()] }))).toEqual([422, "Claim.diagnosis[0].onAdmission"]);
    expect(refused(inpatient("claim", { supportingInfo: [complaint], diagnosis: [diagnosis(present), { ...diagnosis({ coding: [{ system: S.diagnosisOnAdmission, code: "maybe" }] }), sequence: 2 }] }))).toEqual([422, "Claim.diagnosis[1].onAdmission"]);
    // Outside an inpatient stay none is needed, but one given is a code of the exchange's system.
    const outpatient = (onAdmission?: unknown) => claim({ supportingInfo: [complaint, ...RECORDED], diagnosis: [diagnosis(onAdmission)] });
    expect(refused(outpatient())).toBe("accepted");
    expect(refused(outpatient({ coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-diagnosis-on-admission", code: "y" }] }))).toEqual([422, "Claim.diagnosis[0].onAdmission"]);
    // A claim needs no estimated stay; the spec's REST takes the Claim without either.
    expect(refused(inpatient("claim", { supportingInfo: [complaint], diagnosis: [diagnosis(present)] }))).toBe("accepted");
    expect(validateApiClaim(inpatient("preauthorization", { supportingInfo: [complaint], diagnosis: [diagnosis()] }), rules).claim.resourceType).toBe("Claim");
  });

  it("in messaging, a request the exchange would refuse for its care setting's Minimum Data Set is 422 naming the element (an inpatient stay without its Encounter, a line without its maternity flag, an emergency without its triage)", () => {
    const messaging = { ...rules, protocol: "messaging" as const };
    const path = (body: unknown) => {
      try {
        validateApiClaim(body, messaging);
      } catch (error) {
        return [(error as AppError).status, (error as AppError).fields?.[0]?.path, (error as AppError).message];
      }
      return "accepted";
    };
    const complaint = { sequence: 1, category: { coding: [{ system: S.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Pain" } };
    expect(path(claim({ supportingInfo: [complaint], contained: undefined, extension: undefined }))).toEqual([422, "Claim.contained", expect.stringContaining(nphies.EXTENSIONS.encounter)]);
    const professional = { type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] }, supportingInfo: [complaint] };
    expect(path(claim(professional, { productOrService: { coding: [{ system: S.services, code: "SVC-0102" }] }, bodySite: undefined }))).toEqual([422, "Claim.item[0].extension", expect.stringContaining(mds.MDS_EXTENSIONS.maternity)]);
    const emergency = claim(
      { ...professional, subType: { coding: [{ system: S.claimSubtype, code: "emr" }] }, contained: [{ resourceType: "Encounter", id: "encounter", status: "finished", class: { system: S.encounterClass, code: "EMER" }, period: { start: "2026-11-24T01:00:00Z" }, extension: [{ url: mds.MDS_EXTENSIONS.serviceEventType, valueCodeableConcept: { coding: [{ system: mds.MDS_SYSTEMS.serviceEventType, code: "ICSE" }] } }] }] },
      { productOrService: { coding: [{ system: S.services, code: "SVC-0102" }] }, bodySite: undefined, extension: [{ url: mds.MDS_EXTENSIONS.maternity, valueBoolean: false }] },
    );
    expect(path(emergency)).toEqual([422, "Claim.contained[0].extension", expect.stringContaining(mds.MDS_EXTENSIONS.triageCategory)]);
    // The spec's REST takes the same Claim.
    expect(validateApiClaim(emergency, rules).claim.resourceType).toBe("Claim");
    // No CPT procedure list leaves for the exchange.
    expect(path(claim({ supportingInfo: [complaint], procedure: [{ sequence: 1, procedureCodeableConcept: { coding: [{ system: CODE_SYSTEMS.cpt, code: "99213" }] } }] }))).toEqual([422, "Claim.procedure", expect.stringContaining("Claim.procedure")]);
  });

  it.each([
    ["an unknown claim type", claim({ type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "dental" }] } }), "Claim.type"],
    ["a subtype the setting does not take", claim({ subType: { coding: [{ system: S.claimSubtype, code: "ip" }] } }), "Claim.subType"],
    ["a line coded outside the setting's systems", claim({}, { productOrService: { coding: [{ system: S.laboratory, code: "LAB-4001" }] } }), "Claim.item[0].productOrService"],
    ["an oral line with a tooth that is no FDI number", claim({}, { bodySite: { coding: [{ system: S.fdiOralRegion, code: "19" }] } }), "Claim.item[0].bodySite"],
    ["a care team member that is no practitioner", claim({ careTeam: [{ sequence: 1, provider: { reference: "Organization/clinic-001" } }] }), "Claim.careTeam[0].provider"],
  ])("refuses %s: 422 naming the element", (_name, body, path) => {
    expect(refusal(body)).toMatchObject({ status: 422, path });
  });

  it("refuses a malformed care team or subtype shape: 400 naming the element", () => {
    expect(refusal(claim({ careTeam: [{ sequence: 1, provider: {} }] }))).toMatchObject({ status: 400, path: "Claim.careTeam[0].provider" });
    expect(refusal(claim({ subType: "op" }))).toMatchObject({ status: 400, path: "Claim.subType" });
  });
});
