import type { Claim, Encounter, Patient } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { buildClaim, type CareSettingInput } from "../../builders/claim";
import { CODE_SYSTEMS } from "../../systems";
import { r4Problems } from "../../messages/r4-schema.test-support";
import { MDS_EXTENSIONS, MDS_SYSTEMS, type ClinicalFacts } from "../mds";
import { EXTENSIONS } from "../extensions";
import { SYSTEMS } from "../terminology";
import { DEMO_BASE, DEMO_PARTIES } from "./demo";
import type { PatientFacts } from "./facts";
import { assembleMessage } from "./message";

/**
 * The Minimum Data Set as the portal writes it (docs/decisions/103): from the form's clinical facts
 * through the Claim builder (a contained Encounter, Table 35 supportingInfo, item and diagnosis
 * extensions, the accident) and the message assembly (the Encounter as its own entry).
 */
const at = new Date("2026-11-25T09:00:00Z");

function message(setting: CareSettingInput, use: "claim" | "preauthorization" = "claim", diagnoses = ["J06.9"], birthDate = DEMO_PARTIES.patient.birthDate) {
  const claim = buildClaim({
    use,
    identifier: { system: `${DEMO_BASE}/claim-id`, value: "V-0001" },
    nationalId: DEMO_PARTIES.patient.id,
    coverageRef: DEMO_PARTIES.coverage.id,
    providerOrgId: DEMO_PARTIES.provider.id,
    created: at,
    diagnoses,
    procedures: [],
    items: [{ system: SYSTEMS.services, code: "SVC-0101", servicedDate: "2026-11-24", quantity: 1, unitPriceMinor: 10_000, maternity: false }],
    careSetting: { careTeam: [{ practitionerId: "pract-1", specialty: "08.00" }], chiefComplaint: "Fever", ...setting },
  });
  const parties = { ...DEMO_PARTIES, patient: { ...DEMO_PARTIES.patient, birthDate } };
  const built = assembleMessage({ providerLicense: "PR-CLINIC-001", sourceEndpoint: DEMO_BASE, timestamp: at, bundleId: "b1", headerId: "h1", event: use === "claim" ? "claim-request" : "priorauth-request", focus: { ...claim, id: "c1" }, parties, destination: { payerLicense: "INS-1" } });
  const bundle = built.bundle;
  const of = <T,>(type: string) => bundle.entry!.filter((e) => e.resource?.resourceType === type).map((e) => e.resource as T);
  return { bundle, built: claim, claim: of<Claim>("Claim")[0]!, encounter: of<Encounter>("Encounter")[0], patient: of<Patient>("Patient")[0]! };
}

const info = (claim: Claim, code: string) => claim.supportingInfo?.find((i) => i.category.coding?.[0]?.code === code);
const ext = (list: { url: string }[] | undefined, url: string) => list?.find((e) => e.url === url) as Record<string, unknown> | undefined;

describe("the Minimum Data Set in the portal's messages", () => {
  it("an outpatient professional visit: its Encounter (AMB, service event type) as an entry, the vital signs with their unit and timing or absence reason, the notes, maternity and the patient invoice on each line, marital status", () => {
    const clinical: ClinicalFacts = {
      encounter: { class: "AMB", serviceEventType: "ICSE" },
      vitalSigns: { "vital-sign-weight": { value: "70.5" }, pulse: { absent: "patient-refused" } },
      notes: { "treatment-plan": "Rest and fluids." },
    };
    const m = message({ type: "professional", subtype: "op", clinical });
    // The builder keeps the Encounter contained; the assembly makes it an entry named by extension-encounter.
    expect(m.built.contained?.[0]).toMatchObject({ resourceType: "Encounter", id: "encounter" });
    expect(m.claim.contained).toBeUndefined();
    expect(ext(m.claim.extension, EXTENSIONS.encounter)).toEqual({ url: EXTENSIONS.encounter, valueReference: { reference: `Encounter/${m.encounter!.id}` } });
    expect(m.encounter).toMatchObject({
      class: { system: SYSTEMS.encounterClass, code: "AMB" },
      status: "in-progress",
      subject: { reference: `Patient/${DEMO_PARTIES.patient.id}` },
      serviceProvider: { reference: `Organization/${DEMO_PARTIES.provider.id}` },
      period: { start: "2026-11-24" },
      identifier: [{ value: "V-0001" }],
    });
    expect(ext(m.encounter!.extension, MDS_EXTENSIONS.serviceEventType)?.valueCodeableConcept).toEqual({ coding: [{ system: MDS_SYSTEMS.serviceEventType, code: "ICSE" }] });
    expect(info(m.claim, "vital-sign-weight")).toMatchObject({ valueQuantity: { value: 70.5, system: SYSTEMS.ucum, code: "kg" }, timingPeriod: { start: "2026-11-24" } });
    expect(info(m.claim, "pulse")).toMatchObject({ reason: { coding: [{ system: MDS_SYSTEMS.absenceReason("pulse"), code: "patient-refused" }] } });
    expect(info(m.claim, "pulse")?.valueQuantity).toBeUndefined();
    expect(info(m.claim, "treatment-plan")?.valueString).toBe("Rest and fluids.");
    expect(ext(m.claim.item?.[0]?.extension, MDS_EXTENSIONS.maternity)?.valueBoolean).toBe(false);
    expect(ext(m.claim.item?.[0]?.extension, MDS_EXTENSIONS.patientInvoice)?.valueIdentifier).toMatchObject({ value: "V-0001" });
    expect(m.patient.maritalStatus?.coding?.[0]).toMatchObject({ system: MDS_SYSTEMS.maritalStatus, code: "M" });
    expect(r4Problems(m.bundle)).toEqual([]);
  });

  it("an emergency visit: EMER, triage category and date, arrival, emergency service start and department disposition; a death names its cause", () => {
    const clinical: ClinicalFacts = {
      encounter: { class: "", serviceEventType: "ICSE", triageCategory: "VU", triageDate: "2026-11-24T01:05", arrivalCode: "GEMSA", emergencyServiceStart: "2026-11-24T01:12", emergencyDisposition: "expired", causeOfDeath: "I21.9" },
    };
    const m = message({ type: "professional", subtype: "emr", stay: { start: "2026-11-24T01:00:00.000Z", end: "2026-11-24T06:00:00.000Z" }, clinical });
    expect(m.encounter).toMatchObject({ class: { code: "EMER" }, status: "finished", period: { start: "2026-11-24T01:00:00.000Z", end: "2026-11-24T06:00:00.000Z" } });
    const x = m.encounter!.extension;
    expect(ext(x, MDS_EXTENSIONS.triageCategory)?.valueCodeableConcept).toEqual({ coding: [{ system: MDS_SYSTEMS.triageCategory, code: "VU" }] });
    expect(ext(x, MDS_EXTENSIONS.triageDate)?.valueDateTime).toBe("2026-11-24T01:05:00Z");
    expect(ext(x, MDS_EXTENSIONS.emergencyArrivalCode)?.valueCodeableConcept).toEqual({ coding: [{ system: MDS_SYSTEMS.emergencyArrivalCode, code: "GEMSA" }] });
    expect(ext(x, MDS_EXTENSIONS.emergencyServiceStart)?.valueDateTime).toBe("2026-11-24T01:12:00Z");
    expect(ext(x, MDS_EXTENSIONS.emergencyDepartmentDisposition)?.valueCodeableConcept).toEqual({ coding: [{ system: MDS_SYSTEMS.emergencyDepartmentDisposition, code: "expired" }] });
    expect(ext(x, MDS_EXTENSIONS.causeOfDeath)?.valueCodeableConcept).toEqual({ coding: [{ system: CODE_SYSTEMS.icd10am, code: "I21.9" }] });
    expect(m.encounter!.hospitalization).toBeUndefined();
    expect(r4Problems(m.bundle)).toEqual([]);
  });

  it("an inpatient stay of a baby under one year: IMP with admit source, admission and discharge specialty, intended stay, discharge disposition; the admission weight; each diagnosis's condition onset; an accident", () => {
    const clinical: ClinicalFacts = {
      encounter: { class: "IMP", serviceEventType: "ICSE", admitSource: "EER", admissionSpecialty: "08.00", dischargeSpecialty: "08.00", dischargeDisposition: "home" },
      admissionWeight: "7.4",
      conditionOnset: { "J06.9": "PA", "V43.5": "NR" },
      accident: { type: "MVA", date: "2026-11-19" },
    };
    const m = message({ type: "institutional", subtype: "ip", stay: { start: "2026-11-20T08:00:00.000Z", end: "2026-11-23T12:00:00.000Z" }, clinical }, "claim", ["J06.9", "V43.5"], "2026-05-02");
    expect(m.encounter).toMatchObject({
      class: { code: "IMP" },
      hospitalization: {
        admitSource: { coding: [{ system: MDS_SYSTEMS.admitSource, code: "EER" }] },
        dischargeDisposition: { coding: [{ system: MDS_SYSTEMS.dischargeDisposition, code: "home" }] },
      },
    });
    const h = m.encounter!.hospitalization!.extension;
    expect(ext(h, MDS_EXTENSIONS.admissionSpecialty)?.valueCodeableConcept).toEqual({ coding: [{ system: SYSTEMS.practiceCodes, code: "08.00" }] });
    expect(ext(h, MDS_EXTENSIONS.dischargeSpecialty)?.valueCodeableConcept).toEqual({ coding: [{ system: SYSTEMS.practiceCodes, code: "08.00" }] });
    expect(ext(h, MDS_EXTENSIONS.intendedLengthOfStay)?.valueCodeableConcept).toEqual({ coding: [{ system: MDS_SYSTEMS.intendedLengthOfStay, code: "IO" }] });
    expect(info(m.claim, "admission-weight")?.valueQuantity).toEqual({ value: 7.4, system: SYSTEMS.ucum, code: "kg", unit: "kg" });
    expect(m.claim.diagnosis?.map((d) => ext(d.extension, MDS_EXTENSIONS.conditionOnset)?.valueCodeableConcept)).toEqual([
      { coding: [{ system: MDS_SYSTEMS.conditionOnset, code: "PA" }] },
      { coding: [{ system: MDS_SYSTEMS.conditionOnset, code: "NR" }] },
    ]);
    expect(m.claim.accident).toEqual({ date: "2026-11-19", type: { coding: [{ system: MDS_SYSTEMS.accidentType, code: "MVA" }] } });
    expect(r4Problems(m.bundle)).toEqual([]);
  });

  it("no admission weight outside an inpatient stay; no condition onset on a prior authorization; pharmacy has maternity but no Encounter; vision neither", () => {
    const clinical: ClinicalFacts = { encounter: { class: "AMB" }, admissionWeight: "7.4", conditionOnset: { "J06.9": "PA" } };
    const op = message({ type: "professional", subtype: "op", clinical });
    expect(info(op.claim, "admission-weight")).toBeUndefined();
    const auth = message({ type: "institutional", subtype: "ip", stay: { start: "2026-11-20T08:00:00.000Z" }, clinical: { ...clinical, encounter: { class: "IMP" } } }, "preauthorization");
    expect(auth.claim.diagnosis?.[0]?.extension).toBeUndefined();
    expect(auth.encounter!.hospitalization?.dischargeDisposition).toBeUndefined();
    const pharmacy = message({ type: "pharmacy", subtype: "op", careTeam: [], clinical: {} });
    expect(pharmacy.encounter).toBeUndefined();
    expect(ext(pharmacy.claim.item?.[0]?.extension, MDS_EXTENSIONS.maternity)?.valueBoolean).toBe(false);
    const vision = message({ type: "vision", subtype: "op", clinical: {} });
    expect(vision.encounter).toBeUndefined();
    expect(ext(vision.claim.item?.[0]?.extension, MDS_EXTENSIONS.maternity)).toBeUndefined();
  });

  it("the accounting period on claims only (a date, the month's first day); occupation always and religion when recorded on the Patient", () => {
    const base = {
      identifier: { system: `${DEMO_BASE}/claim-id`, value: "V-0002" },
      nationalId: DEMO_PARTIES.patient.id,
      coverageRef: DEMO_PARTIES.coverage.id,
      providerOrgId: DEMO_PARTIES.provider.id,
      created: at,
      diagnoses: ["J06.9"],
      procedures: [],
      items: [{ system: SYSTEMS.services, code: "SVC-0101", servicedDate: "2026-11-24", quantity: 1, unitPriceMinor: 10_000 }],
      careSetting: { type: "professional" as const, subtype: "op" as const },
      accountingPeriod: "2026-11-01",
    };
    expect(ext(buildClaim({ ...base, use: "claim" }).extension, EXTENSIONS.accountingPeriod)).toEqual({ url: EXTENSIONS.accountingPeriod, valueDate: "2026-11-01" });
    expect(ext(buildClaim({ ...base, use: "preauthorization" }).extension, EXTENSIONS.accountingPeriod)).toBeUndefined();
    // The spec's REST claim (no care setting) carries none of the exchange's extensions.
    expect(buildClaim({ ...base, use: "claim", careSetting: undefined }).extension).toBeUndefined();
    expect(() => buildClaim({ ...base, use: "claim", accountingPeriod: "2026-11-15" })).toThrow(/accounting period/);

    const build = (patient: PatientFacts) =>
      assembleMessage({ providerLicense: "PR-CLINIC-001", sourceEndpoint: DEMO_BASE, timestamp: at, bundleId: "b2", headerId: "h2", event: "claim-request", focus: { ...buildClaim({ ...base, use: "claim" }), id: "c2" }, parties: { ...DEMO_PARTIES, patient }, destination: { payerLicense: "INS-1" } }).bundle;
    const patientOf = (bundle: ReturnType<typeof build>) => bundle.entry!.find((e) => e.resource?.resourceType === "Patient")!.resource as Patient;
    const asked = patientOf(build({ ...DEMO_PARTIES.patient, occupation: "student", religion: "not-stated" }));
    expect(ext(asked.extension, EXTENSIONS.occupation)?.valueCodeableConcept).toEqual({ coding: [{ system: SYSTEMS.occupation, code: "student" }] });
    expect(ext(asked.extension, EXTENSIONS.patientReligion)?.valueCodeableConcept).toEqual({ coding: [{ system: MDS_SYSTEMS.religion, code: "not-stated" }] });
    const notAsked = patientOf(build({ ...DEMO_PARTIES.patient, occupation: undefined, religion: undefined }));
    expect(ext(notAsked.extension, EXTENSIONS.occupation)?.valueCodeableConcept).toEqual({ coding: [{ system: SYSTEMS.occupation, code: "unknown" }] });
    expect(ext(notAsked.extension, EXTENSIONS.patientReligion)).toBeUndefined();
  });
});
