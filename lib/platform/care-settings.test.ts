import type { Bundle, Claim, CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "@/lib/audit";
import { listPractitioners, seedDemoPractitioners } from "@/lib/facilities";
import { buildCancelTask, buildCommunication, buildEligibilityRequest, buildPaymentNotice, nphies } from "@/lib/fhir";
import { r4Problems } from "@/lib/fhir/messages/r4-schema.test-support";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { findPatientByNationalId, listCoverages } from "@/lib/patients/registry";
import { getSubmission, submitForm } from "@/lib/submissions";
import { testDatabases } from "@/lib/testing/databases";
import { submissions } from "@/lib/db/schema";
import type { PlatformClient } from "./client";
import { createMessagingPlatform } from "./messaging";
import { claimByIdentifierFromDb, payerLicenseFromDb, payerNameFromDb } from "./payer-license";
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

/** One form per care setting, as staff fill it in (demo codes the sandbox prices). */
const FORMS: Record<nphies.ClaimType, FormOf> = {
  professional: (t) => ({ claimType: "professional", subtype: "op", careTeam: [t["PRAC-10001"]], chiefComplaint: "Sore throat for three days", items: [line(S.services, "SVC-0101", { tax: "22.58", patientShare: "30" })] }),
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
    items: [line(S.services, "SVC-0301", { quantity: "3", package: true })],
  }),
  oral: (t) => ({ claimType: "oral", subtype: "op", careTeam: [t["PRAC-10002"]], chiefComplaint: "Toothache", items: [line(S.oralHealthOp, "ORL-2003", { tooth: "16" })] }),
  pharmacy: () => ({ claimType: "pharmacy", subtype: "op", daysSupply: "30", items: [line(S.medicationCodes, "06280000000101")] }),
  vision: (t) => ({ claimType: "vision", subtype: "op", careTeam: [t["PRAC-10003"]], chiefComplaint: "Blurred distance vision", visionPrescription: "VP-2026-0007", items: [line(S.services, "SVC-0402")] }),
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
      payerLicense: payerLicenseFromDb(database.db),
      payerName: payerNameFromDb(database.db),
      claimByIdentifier: claimByIdentifierFromDb(database.db),
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
    // An inpatient claim asks no estimated stay; an emergency request neither (its form is taken: the
    // scrubber then asks the emergency's vital signs). The same service that day again is a scrubber
    // warning, answered "Send anyway".
    const sendAnyway = { scrub: { acknowledgeWarnings: true } };
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...form, use: "claim", estimatedStay: "", onAdmission: { "J06.9": "y", "R50.9": "n" } }, undefined, sendAnyway)).toMatchObject({ ok: true });
    expect(await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...form, subtype: "emr", estimatedStay: "", onAdmission: {} }, undefined, sendAnyway)).toMatchObject({ error: "scrub" });

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

  it("a pharmacy claim names no care team; an oral line without a tooth is a field error, nothing stored", async () => {
    const oral = FORMS.oral(team) as { items: Record<string, unknown>[] };
    const result = await submitForm({ db: database.db, providerOrgId: "clinic-001" }, caller, { ...base, use: "claim", ...oral, items: [{ ...oral.items[0], tooth: "" }], careTeam: [] });
    expect(result).toEqual({ ok: false, error: "invalid", fieldErrors: { careTeam: ["careTeamRequired"], "items.0.tooth": ["toothRequired"] } });
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
