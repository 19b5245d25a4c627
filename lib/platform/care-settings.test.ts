import type { Bundle, Claim, Coverage, CoverageEligibilityRequest, Encounter, Patient } from "@medplum/fhirtypes";
import * as mds from "@/lib/fhir/mds";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { listPractitioners, seedDemoPractitioners } from "@/lib/facilities";
import { buildCancelTask, buildCommunication, buildEligibilityRequest, buildPaymentNotice, nphies } from "@/lib/fhir";
import { r4Problems } from "@/lib/fhir/messages/r4-schema.test-support";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { findPatientByNationalId, listCoverages } from "@/lib/patients/registry";
import { getSubmission, sentClaimReads, submitForm } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { coverages, patients, submissions } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import type { PlatformClient } from "./client";
import { createMessagingPlatform } from "./messaging";
import { claimByIdentifierOf, payerLicenseFromDb, payerNameFromDb } from "./payer-license";
import { partiesFromDb } from "./parties";

/**
 * The conformance corpus per care setting (docs/decisions/083): the portal's own message for a
 * claim and a prior authorization of each of the five claim types — from the form's values,
 * through the submission (lib/submissions), the parties read from the database (practitioners,
 * document type, stay) and the messaging adapter's assembly — passes every rule of the exchange
 * (`checkMessage`, no finding at all) and is valid R4.
 */
const caller: Caller = { actor: { kind: "user", id: "staff-1", email: "billing@clinic.example", roles: ["billing"] }, userId: "staff-1" };
const today = "2026-11-24";
const S = nphies.SYSTEMS;

type FormOf = (team: Record<string, string>) => Record<string, unknown>;
const line = (system: string, code: string, extra: Record<string, unknown> = {}) => ({ system, code, servicedDate: today, quantity: "2", unitPrice: "150.50", ...extra });

/** The visit's vital signs and notes (the Minimum Data Set, docs/decisions/103): values, and one absence reason. */
const VITALS = { "vital-sign-weight": { value: "72.5", absent: "" }, "vital-sign-height": { value: "168", absent: "" }, "vital-sign-systolic": { value: "120", absent: "" }, "vital-sign-diastolic": { value: "80", absent: "" }, temperature: { value: "37.2", absent: "" }, pulse: { value: "78", absent: "" }, "respiratory-rate": { value: "16", absent: "" }, "oxygen-saturation": { value: "", absent: "not-measured" } };
const NOTES = { "history-of-present-illness": "Three days of sore throat and fever.", "physical-examination": "Red throat, no exudate.", "treatment-plan": "Fluids and paracetamol; review in a week.", "patient-history": "No chronic illness; no medicines." };
/** The investigation result every request carries (BV-00752): here, none performed. */
const INVESTIGATION = { code: "INP", text: "" };
/** Notes and the investigation result, what every care setting's request carries (decision 104). */
const NOTED = { notes: NOTES, investigation: INVESTIGATION };

/** One form per care setting, as staff fill it in (demo codes the sandbox prices), with what the exchange's Minimum Data Set asks of it. */
const FORMS: Record<nphies.ClaimType, FormOf> = {
  professional: (t) => ({ claimType: "professional", subtype: "op", careTeam: [t["PRAC-10001"]], chiefComplaint: "Sore throat for three days", clinical: { encounter: { class: "AMB", start: `${today}T09:30`, serviceEventType: "ICSE" }, vitalSigns: VITALS, ...NOTED }, items: [line(S.services, "SVC-0101", { tax: "22.58", patientShare: "30" })] }),
  institutional: (t) => ({
    claimType: "institutional",
    subtype: "ip",
    careTeam: [t["PRAC-10001"], t["PRAC-10002"]],
    chiefComplaint: "Chest infection needing admission",
    admission: "2026-11-20T08:00",
    discharge: "2026-11-23T12:00",
    // An inpatient stay: the estimated days (sent on the prior authorization) and the diagnosis present on admission.
    estimatedStay: "4",
    onAdmission: { "J06.9": "y" },
    episodeId: "EP-2026-0042",
    clinical: {
      encounter: { class: "IMP", serviceEventType: "ICSE", admitSource: "IA", admissionSpecialty: "08.00", dischargeSpecialty: "08.00", dischargeDisposition: "home" },
      vitalSigns: VITALS,
      ...NOTED,
      conditionOnset: { "J06.9": "PA", "R50.9": "AD" },
    },
    items: [line(S.services, "SVC-0301", { quantity: "3", package: true })],
  }),
  oral: (t) => ({ claimType: "oral", subtype: "op", careTeam: [t["PRAC-10002"]], chiefComplaint: "Toothache", clinical: { encounter: { class: "", start: `${today}T10:15`, serviceEventType: "SCSE" }, ...NOTED }, items: [line(S.oralHealthOp, "ORL-2003", { tooth: "16" })] }),
  pharmacy: () => ({ claimType: "pharmacy", subtype: "op", daysSupply: "30", clinical: NOTED, items: [line(S.medicationCodes, "06280000000101")] }),
  vision: (t) => ({ claimType: "vision", subtype: "op", careTeam: [t["PRAC-10003"]], chiefComplaint: "Blurred distance vision", visionPrescription: "VP-2026-0007", clinical: NOTED, items: [line(S.services, "SVC-0402")] }),
};

describe.each(testDatabases())("the portal's message per care setting on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  let base: Record<string, unknown>;
  let insurerId: string;
  let team: Record<string, string>;
  const sent: Bundle[] = [];
  let port: ReturnType<typeof createMessagingPlatform>;

  beforeAll(async () => {
    database = await target.open();
    await seedDemoPatients(database.db);
    await seedDemoPractitioners(database.db);
    const patient = await findPatientByNationalId(database.db, "1000000001");
    const coverage = (await listCoverages(database.db, patient!.id))[0]!;
    // What the desk recorded: the marital status (registration), the card's class and its expiry (decision 126).
    await database.db.update(patients).set({ maritalStatus: "M" }).where(eq(patients.id, patient!.id));
    await database.db.update(coverages).set({ coverageClass: "GOLD", expiresOn: "2027-03-31" }).where(eq(coverages.id, coverage.id));
    const coverageId = coverage.id;
    insurerId = coverage.insurerId;
    base = { patientId: patient!.id, coverageId, diagnoses: ["J06.9"], procedures: [], attachmentIds: [] };
    team = Object.fromEntries((await listPractitioners(database.db, null)).map((p) => [p.license, p.id]));
    // The transport keeps the message and answers nothing: only what the portal sends is under test.
    const transport = {
      config: { protocol: "messaging" },
      processMessage: async (bundle: Bundle) => {
        sent.push(bundle);
        throw new Error("not sent: captured");
      },
      close: async () => {},
    } as unknown as PlatformClient;
    port = createMessagingPlatform({
      transport,
      providerLicense: "PR-CLINIC-001",
      providerOrgId: "clinic-001",
      payerLicense: payerLicenseFromDb(database.db, sentClaimReads(database.db)),
      payerName: payerNameFromDb(database.db),
      claimByIdentifier: claimByIdentifierOf(sentClaimReads(database.db)),
      providerFacts: { id: "clinic-001", license: "PR-CLINIC-001", name: "Sandbox Family Clinic", providerType: "1" },
      parties: partiesFromDb(database.db, { id: "clinic-001", license: "PR-CLINIC-001", name: "Sandbox Family Clinic", providerType: "1" }, { id: "loc-clinic-001", license: "PR-CLINIC-001", name: "Sandbox Family Clinic" }),
      sourceEndpoint: "https://clinic.example/fhir",
      clock: () => new Date(`${today}T10:00:00Z`),
    });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const cases = nphies.CLAIM_TYPES.flatMap((type) => (["preauthorization", "claim"] as const).map((use) => [type, use] as const));
  it.each(cases)("%s %s: no finding, valid R4", async (type, use) => {
    const result = await submitForm({ db: database.db, providerOrgId: "clinic-001", clock: () => new Date(`${today}T09:00:00Z`) }, caller, { ...base, use, ...FORMS[type](team) });
    expect(result).toMatchObject({ ok: true, status: "queued" });
    const submission = await getSubmission(database.db, (result as { id: string }).id);
    const before = sent.length;
    await expect(port.submitClaim(submission!.claim as unknown as Claim)).rejects.toThrow("captured");
    const bundle = sent[before]!;
    const check = nphies.checkMessage(bundle, { today: new Date(`${today}T12:00:00Z`), isKnownPractitioner: (l) => l in team });
    expect(check.findings).toEqual([]);
    expect(r4Problems(bundle)).toEqual([]);
    const claim = bundle.entry!.find((e) => e.resource?.resourceType === "Claim")!.resource as Claim;
    expect(claim.meta?.profile?.[0]).toBe(nphies.claimProfile(type, use));
    // The Minimum Data Set (docs/decisions/103): the Encounter as an entry of the message for every
    // institutional, professional and oral request, named by extension-encounter; the maternity flag
    // on every institutional, professional and pharmacy line; the condition onset of an institutional
    // claim's diagnoses; the vital signs of Table 35; the patient's marital status, the coverage's class.
    const encounters = bundle.entry!.filter((e) => e.resource?.resourceType === "Encounter").map((e) => e.resource as Encounter);
    if (type === "institutional" || type === "professional" || type === "oral") {
      expect(encounters).toHaveLength(1);
      expect(claim.extension?.find((e) => e.url === nphies.EXTENSIONS.encounter)?.valueReference?.reference).toBe(`Encounter/${encounters[0]!.id}`);
      expect(claim.contained).toBeUndefined();
      expect(encounters[0]!.class.code).toBe(type === "institutional" ? "IMP" : "AMB");
      expect(encounters[0]!.subject?.reference).toBe("Patient/1000000001");
      expect(encounters[0]!.extension?.find((e) => e.url === mds.MDS_EXTENSIONS.serviceEventType)?.valueCodeableConcept?.coding?.[0]?.code).toMatch(/^(ICSE|SCSE)$/);
    } else expect(encounters).toEqual([]);
    if (type === "institutional") {
      expect(encounters[0]!.hospitalization?.admitSource?.coding?.[0]).toEqual({ system: mds.MDS_SYSTEMS.admitSource, code: "IA" });
      if (use === "claim") expect(claim.diagnosis?.[0]?.extension).toEqual([{ url: mds.MDS_EXTENSIONS.conditionOnset, valueCodeableConcept: { coding: [{ system: mds.MDS_SYSTEMS.conditionOnset, code: "PA" }] } }]);
    }
    const maternity = (claim.item ?? []).map((i) => i.extension?.find((e) => e.url === mds.MDS_EXTENSIONS.maternity)?.valueBoolean);
    expect(maternity.every((m) => m === false)).toBe(type === "institutional" || type === "professional" || type === "pharmacy");
    if (type === "institutional" || type === "professional") {
      expect(claim.supportingInfo?.find((i) => i.category.coding?.[0]?.code === "vital-sign-weight")?.valueQuantity).toEqual({ value: 72.5, system: "http://unitsofmeasure.org", code: "kg", unit: "kg" });
      expect(claim.supportingInfo?.find((i) => i.category.coding?.[0]?.code === "oxygen-saturation")?.reason?.coding?.[0]?.code).toBe("not-measured");
    }
    const patient = bundle.entry!.find((e) => e.resource?.resourceType === "Patient")!.resource as Patient;
    expect(patient.maritalStatus?.coding?.[0]).toMatchObject({ system: mds.MDS_SYSTEMS.maritalStatus, code: "M" });
    const coverage = bundle.entry!.find((e) => e.resource?.resourceType === "Coverage")!.resource as Coverage;
    expect(coverage.class?.[0]?.value).toBe("GOLD");
    expect(coverage.policyHolder?.reference).toBe("Patient/1000000001");
    expect(claim.total?.value).toBe(type === "professional" ? 323.58 : type === "institutional" ? 451.5 : 301);
    // The care team names each practitioner by reference, licence and name (a reader without the entry knows who).
    if (type !== "pharmacy") expect(claim.careTeam?.[0]?.provider).toMatchObject({ reference: expect.stringMatching(/^Practitioner\//), identifier: { system: nphies.LICENSES.practitioner, value: expect.stringMatching(/^PRAC-/) }, display: expect.any(String) });
  });

  it("an inpatient prior authorization: the estimated stay and each diagnosis on admission are field errors when missing, nothing stored; sent, the message carries them", async () => {
    const stored = async () => (await database.db.select({ id: submissions.id }).from(submissions)).length;
    const before = await stored();
    const form = { ...base, use: "preauthorization", ...FORMS.institutional(team), diagnoses: ["J06.9", "R50.9"] };
    const missing = await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "messaging" }, caller, { ...form, estimatedStay: "", onAdmission: { "J06.9": "y" } });
    expect(missing).toEqual({ ok: false, error: "invalid", fieldErrors: { estimatedStay: ["estimatedStayRequired"], onAdmission: ["onAdmissionRequired"] } });
    for (const estimatedStay of ["0", "366", "2.5", "four"]) {
      expect(await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...form, estimatedStay, onAdmission: { "J06.9": "y", "R50.9": "n" } }), estimatedStay).toEqual({ ok: false, error: "invalid", fieldErrors: { estimatedStay: ["estimatedStayInvalid"] } });
    }
    expect(await stored()).toBe(before);
    // An inpatient claim asks no estimated stay; a (professional) emergency request neither (its form is taken: the
    // scrubber then asks the emergency's vital signs). The same service that day again is a scrubber
    // warning, answered "Send anyway".
    const sendAnyway = { scrub: { acknowledgeWarnings: true } };
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...form, use: "claim", estimatedStay: "", onAdmission: { "J06.9": "y", "R50.9": "n" } }, undefined, sendAnyway)).toMatchObject({ ok: true });
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...form, claimType: "professional", subtype: "emr", estimatedStay: "", onAdmission: {}, clinical: {} }, undefined, sendAnyway)).toMatchObject({ error: "scrub" });
    // An institutional claim is a stay (guide 9.19): an emergency visit is professional.
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...form, subtype: "emr", estimatedStay: "", onAdmission: {}, clinical: {} }, undefined, sendAnyway)).toMatchObject({ ok: false, error: "invalid", fieldErrors: { subtype: expect.any(Array) } });

    const result = await submitForm({ db: database.db, providerOrgId: "clinic-001", clock: () => new Date(`${today}T09:00:00Z`) }, caller, { ...form, estimatedStay: "4", onAdmission: { "R50.9": "n", "J06.9": "y", "Z99.9": "u" } }, undefined, sendAnyway);
    expect(result).toMatchObject({ ok: true });
    const submission = await getSubmission(database.db, (result as { id: string }).id);
    const at = sent.length;
    await expect(port.submitClaim(submission!.claim as unknown as Claim)).rejects.toThrow("captured");
    const claim = sent[at]!.entry!.find((e) => e.resource?.resourceType === "Claim")!.resource as Claim;
    expect(claim.supportingInfo?.find((i) => i.category.coding?.[0]?.code === "estimated-Length-of-Stay")?.valueQuantity).toEqual({ value: 4, unit: "d", system: "http://unitsofmeasure.org", code: "d" });
    // Each diagnosis keeps its own answer, whatever order the answers came in; none for a code not diagnosed.
    expect(claim.diagnosis?.map((d) => [d.diagnosisCodeableConcept?.coding?.[0]?.code, d.onAdmission?.coding?.[0]])).toEqual([
      ["J06.9", { system: nphies.SYSTEMS.diagnosisOnAdmission, code: "y", display: "Yes" }],
      ["R50.9", { system: nphies.SYSTEMS.diagnosisOnAdmission, code: "n", display: "No" }],
    ]);
    expect(nphies.checkMessage(sent[at]!, { today: new Date(`${today}T12:00:00Z`), isKnownPractitioner: (l) => l in team }).findings).toEqual([]);
  });

  it("in messaging a line coded in CPT is a field error before anything is stored; in REST it is taken", async () => {
    const cpt = { ...base, use: "claim", ...FORMS.professional(team), items: [{ system: "", code: "99213", servicedDate: today, quantity: "1", unitPrice: "250" }] };
    const stored = async () => (await database.db.select({ id: submissions.id }).from(submissions)).length;
    const before = await stored();
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "messaging" }, caller, cpt)).toEqual({ ok: false, error: "invalid", fieldErrors: { "items.0.system": ["systemNotExchange"] } });
    expect(await stored()).toBe(before);
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "rest" }, caller, cpt)).toMatchObject({ ok: true });
  });

  it("in messaging what the Minimum Data Set asks of the care setting is a field error, nothing stored; a CPT procedure too; in REST the form is taken as it was", async () => {
    const stored = async () => (await database.db.select({ id: submissions.id }).from(submissions)).length;
    const before = await stored();
    const bare = { ...base, use: "claim", ...FORMS.professional(team), clinical: {} };
    const refused = await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "messaging" }, caller, { ...bare, procedures: ["99213"] });
    expect(refused).toMatchObject({ ok: false, error: "invalid" });
    const errors = (refused as { fieldErrors: Record<string, string[]> }).fieldErrors;
    expect(errors).toMatchObject({
      "procedures.0": ["procedureNotExchange"],
      "clinical.encounter.class": ["encounterClassRequired"],
      "clinical.encounter.serviceEventType": ["serviceEventTypeRequired"],
      "clinical.vitalSigns.vital-sign-weight.value": ["vitalSignRequired"],
      "clinical.notes.treatment-plan": ["clinicalNoteRequired"],
    });
    // An emergency visit: triage, arrival and the emergency service start.
    const emergency = await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "messaging" }, caller, { ...base, use: "claim", ...FORMS.professional(team), subtype: "emr", admission: "2026-11-24T01:10", clinical: { encounter: { class: "EMER", serviceEventType: "ICSE" }, vitalSigns: VITALS, ...NOTED } });
    expect(Object.keys((emergency as { fieldErrors: Record<string, string[]> }).fieldErrors).sort()).toEqual(["clinical.encounter.arrivalCode", "clinical.encounter.emergencyServiceStart", "clinical.encounter.triageCategory", "clinical.encounter.triageDate"]);
    expect(await stored()).toBe(before);
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "rest" }, caller, bare, undefined, { scrub: { acknowledgeWarnings: true } })).toMatchObject({ ok: true });
  });

  it("in messaging a patient without a marital status, or a coverage without its class, is a field error on the record to fix, nothing stored", async () => {
    const stored = async () => (await database.db.select({ id: submissions.id }).from(submissions)).length;
    const before = await stored();
    const form = { ...base, use: "claim", ...FORMS.professional(team) };
    const messaging = { db: database.db, providerOrgId: "clinic-001", protocol: "messaging" as const };
    const [patient] = await database.db.select().from(patients).where(eq(patients.id, base.patientId as string));
    const [coverage] = await database.db.select().from(coverages).where(eq(coverages.id, base.coverageId as string));
    try {
      await database.db.update(patients).set({ maritalStatus: null }).where(eq(patients.id, patient!.id));
      await database.db.update(coverages).set({ coverageClass: "" }).where(eq(coverages.id, coverage!.id));
      expect(await submitForm(messaging, caller, form)).toEqual({ ok: false, error: "invalid", fieldErrors: { patientId: ["maritalStatusMissing"], coverageId: ["coverageClassMissing"] } });
      expect(await stored()).toBe(before);
    } finally {
      await database.db.update(patients).set({ maritalStatus: patient!.maritalStatus }).where(eq(patients.id, patient!.id));
      await database.db.update(coverages).set({ coverageClass: coverage!.coverageClass }).where(eq(coverages.id, coverage!.id));
    }
  });

  it("a pharmacy claim names no care team; an oral line goes without a tooth (an examination has none: guide v2.7 requires no bodySite), a wrong tooth is a field error", async () => {
    const oral = FORMS.oral(team) as { items: Record<string, unknown>[] };
    const result = await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...base, use: "claim", ...oral, items: [{ ...oral.items[0], tooth: "" }], careTeam: [] });
    expect(result).toEqual({ ok: false, error: "invalid", fieldErrors: { careTeam: ["careTeamRequired"] } });
    const wrong = await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...base, use: "claim", ...oral, items: [{ ...oral.items[0], tooth: "99" }] });
    expect(wrong).toEqual({ ok: false, error: "invalid", fieldErrors: { "items.0.tooth": ["toothInvalid"] } });
    const examination = await submitForm({ db: database.db, providerOrgId: "clinic-001", protocol: "messaging", clock: () => new Date(`${today}T09:00:00Z`) }, caller, { ...base, use: "preauthorization", ...oral, items: [{ ...oral.items[0], tooth: "" }] }, undefined, { scrub: { acknowledgeWarnings: true } });
    expect(examination).toMatchObject({ ok: true });
  });

  it("an eligibility request: profiled, a period of the day, the site and the coverage, with its parties as entries — no finding, valid R4", async () => {
    const request = buildEligibilityRequest({
      identifierValue: "7c1e9a52-3f0b-4d7e-9a61-2b5c8d4e0f13",
      nationalId: "1000000001",
      insurerId,
      providerOrgId: "clinic-001",
      servicedDate: today,
      purposes: ["benefits", "validation"],
      categories: [],
      created: new Date(`${today}T09:00:00Z`),
    });
    const before = sent.length;
    await expect(port.checkEligibility(request)).rejects.toThrow("captured");
    const bundle = sent[before]!;
    expect(nphies.checkMessage(bundle, { today: new Date(`${today}T12:00:00Z`) }).findings).toEqual([]);
    expect(r4Problems(bundle)).toEqual([]);
    const types = bundle.entry!.map((e) => e.resource!.resourceType).sort();
    expect(types).toEqual(["Coverage", "CoverageEligibilityRequest", "Location", "MessageHeader", "Organization", "Organization", "Patient"]);
    const focus = bundle.entry!.find((e) => e.resource?.resourceType === "CoverageEligibilityRequest")!.resource as CoverageEligibilityRequest;
    expect(focus.meta?.profile?.[0]).toMatch(/eligibility-request/);
    expect(focus.servicedPeriod).toEqual({ start: today, end: today });
    expect(focus.servicedDate).toBeUndefined();
    expect(focus.priority?.coding?.[0]?.code).toBe("normal");
    expect(focus.facility?.reference).toBe("Location/loc-clinic-001");
    expect(focus.insurance).toEqual([{ focal: true, coverage: { reference: expect.stringMatching(/^Coverage\/./) } }]);
    // The card's expiry as recorded at the desk: the Coverage's period end (decision 126).
    expect((bundle.entry!.find((e) => e.resource?.resourceType === "Coverage")!.resource as { period?: unknown }).period).toEqual({ end: "2027-03-31" });
  });

  it("every other message the adapter sends passes every rule: communication, cancel, status check, poll, payment notice", async () => {
    // The same service as an earlier case of this file: the scrubber's duplicate warning is answered.
    const submitted = await submitForm({ db: database.db, providerOrgId: "clinic-001", clock: () => new Date(`${today}T09:00:00Z`) }, caller, { ...base, use: "claim", ...FORMS.professional(team) }, undefined, { scrub: { acknowledgeWarnings: true } });
    expect(submitted).toMatchObject({ ok: true });
    const submission = await getSubmission(database.db, (submitted as { id: string }).id);
    const identifier = { system: submission!.identifierSystem!, value: submission!.identifierValue! };
    const at = new Date(`${today}T10:00:00Z`);
    const messages: [string, () => Promise<unknown>][] = [
      ["communication", () => port.sendCommunication(buildCommunication({ id: "5f0c7a1e-2b3d-4c5e-8f90-a1b2c3d4e5f6", requestId: "cr-1", requestIdentifier: { system: "https://payer.example/communication-request-id", value: "CR-1" }, about: { identifier }, providerOrgId: "clinic-001", recipientOrgId: insurerId, text: "The report is attached.", sent: at }))],
      ["cancel-request", () => port.cancel(buildCancelTask({ id: "6a1d8b2f-3c4e-4d5f-9a01-b2c3d4e5f607", target: { identifier }, code: "cancel", reason: "WI", providerOrgId: "clinic-001", insurerOrgId: insurerId, authoredOn: at }))],
      ["status-check", () => port.claimStatus({ identifier })],
      ["poll-request", () => port.pollMessages!()],
      ["payment-notice", () => port.sendPaymentNotice(buildPaymentNotice({ id: "7b2e9c30-4d5f-4e60-8b12-c3d4e5f60718", paymentId: "pay-1", paymentStatus: "paid", amountMinor: 12_500, currency: "SAR", providerOrgId: "clinic-001", paymentDate: today, created: at, identifierSystem: "https://clinic.example/fhir/payment-notice-id/clinic-001", paymentIdentifier: { system: "https://payer.example/payment", value: "PAY-1" } }))],
    ];
    for (const [event, send] of messages) {
      const before = sent.length;
      await expect(send()).rejects.toThrow("captured");
      const bundle = sent[before]!;
      expect([event, nphies.checkMessage(bundle, { today: new Date(`${today}T12:00:00Z`) }).findings]).toEqual([event, []]);
      expect(r4Problems(bundle)).toEqual([]);
    }
  });
});
