import type { Claim, Resource } from "@medplum/fhirtypes";
import { buildClaim } from "../../builders/claim";
import { buildCancelTask, buildCommunication } from "../../builders/communication";
import { buildEligibilityRequest } from "../../builders/eligibility";
import { buildPaymentNotice } from "../../builders/payment-notice";
import { buildStatusCheckTask } from "../../builders/status-check";
import { buildPollTask } from "../../messages/poll";
import type { BuiltMessage } from "../../messages/build";
import { CLAIM_TYPES, type ClaimType, type ClaimUse } from "../profiles";
import { ITEM_SYSTEMS_BY_CLAIM_TYPE, SUBTYPES_BY_CLAIM_TYPE, requiredSupportingInfo, requiresOnAdmission, type ClaimSubtype } from "../terminology";
import type { MessageParties } from "./facts";
import { assembleMessage } from "./message";
import { insurerResource, providerResource } from "./resources";
import { VITAL_SIGN_KEYS, encounterClassesFor, mdsNeeds, type ClinicalFacts } from "../mds";

/**
 * The portal's request messages of every event and care setting, built the way the portal builds
 * them (lib/fhir builders → assembly → envelope) from fictional demo facts: the conformance tests
 * check them with the rule checker, scripts/nphies-rule-table.ts measures them and
 * scripts/generate-example-messages.ts writes them to docs/messages/ (docs/decisions/074).
 * Fixed ids and times, so the output is the same on every run.
 */
export const DEMO_BASE = "https://clinic.example/fhir";
const AT = new Date("2026-11-25T09:00:00.000Z");
const PROVIDER_LICENSE = "PR-CLINIC-001";
const PAYER_LICENSE = "INS-RIMAL-001";
const IDENTIFIER_SYSTEM = `${DEMO_BASE}/claim-id/clinic-1`;

export const DEMO_PARTIES = {
  patient: { id: "1000000001", document: "nationalId", number: "1000000001", givenName: "Demo", familyName: "Patient", gender: "female", birthDate: "1988-03-14", maritalStatus: "M" },
  coverage: { id: "cov-1000000001", memberId: "MEM-0001", classes: [{ type: "plan", value: "GOLD", name: "Gold" }] },
  provider: { id: "clinic-1", license: PROVIDER_LICENSE, name: "Demo Clinic", providerType: "5" },
  insurer: { id: "payer-rimal", license: PAYER_LICENSE, name: "Demo Insurer" },
  practitioners: [{ id: "pract-1", license: "PRACT-0001", givenName: "Demo", familyName: "Doctor", specialty: "08.00" }],
  location: { id: "loc-1", license: "LOC-0001", name: "Demo Clinic, main site" },
} satisfies MessageParties;

const INPATIENT_ENCOUNTER = { id: "enc-1", identifier: { system: `${DEMO_BASE}/encounter-id/clinic-1`, value: "ENC-0001" }, class: "IMP", status: "finished" as const, start: "2026-11-20T08:00:00Z", end: "2026-11-23T12:00:00Z" };

/** Demo vital signs (Table 35): each a value in its unit, the oxygen saturation not measured (its absence reason). */
const DEMO_VITALS: NonNullable<ClinicalFacts["vitalSigns"]> = {
  "vital-sign-weight": { value: "64" },
  "vital-sign-height": { value: "165" },
  "vital-sign-systolic": { value: "118" },
  "vital-sign-diastolic": { value: "76" },
  temperature: { value: "37.8" },
  pulse: { value: "82" },
  "respiratory-rate": { value: "18" },
  "oxygen-saturation": { absent: "not-measured" },
};

/** What the exchange's Minimum Data Set asks of a care setting, as the forms record it (docs/decisions/103). */
function demoClinical(type: ClaimType, subtype: ClaimSubtype, use: ClaimUse): ClinicalFacts {
  const needs = mdsNeeds(type, subtype, use === "claim" ? "claim" : "preauthorization");
  const classes = encounterClassesFor(type, subtype);
  return {
    encounter: {
      class: classes[0] ?? "",
      serviceEventType: "ICSE",
      ...(needs.visitStart ? { start: "2026-11-25T09:30" } : {}),
      ...(needs.inpatient ? { admitSource: "IA", admissionSpecialty: "08.00" } : {}),
      ...(needs.discharge ? { dischargeSpecialty: "08.00", dischargeDisposition: "home" } : {}),
    },
    ...(needs.vitalSigns.length === VITAL_SIGN_KEYS.length ? { vitalSigns: DEMO_VITALS } : {}),
    ...(needs.clinicalNotes.length > 0
      ? { notes: { "history-of-present-illness": "Two days of fever and cough.", "physical-examination": "Chest clear, throat red.", "treatment-plan": "Fluids and antipyretics; review in three days.", "patient-history": "No chronic illness, no regular medicines." } }
      : {}),
    ...(needs.investigationResult ? { investigation: { code: "INP" } } : {}),
    ...(needs.conditionOnset ? { conditionOnset: { "J06.9": "PA" } } : {}),
  };
}

/** A code of the care setting's first allowed system (demo codes we made up: never a licensed code). */
const DEMO_CODES: Record<ClaimType, string> = { institutional: "DEMO-IP-001", professional: "DEMO-OP-001", oral: "DEMO-ORAL-001", pharmacy: "DEMO-GTIN-0001", vision: "DEMO-VIS-001" };

/** The portal's Claim (lib/fhir buildClaim) in a care setting, as the forms record it (docs/decisions/083). */
export function demoClaim(type: ClaimType, use: ClaimUse, subtype: ClaimSubtype = SUBTYPES_BY_CLAIM_TYPE[type][0]!): Claim {
  const stay = subtype === "ip" || subtype === "emr";
  return buildClaim({
    use,
    identifier: { system: IDENTIFIER_SYSTEM, value: `${type}-${use}-0001` },
    nationalId: DEMO_PARTIES.patient.id,
    coverageRef: DEMO_PARTIES.coverage.id,
    providerOrgId: DEMO_PARTIES.provider.id,
    created: AT,
    accountingPeriod: "2026-11-01",
    diagnoses: ["J06.9"],
    procedures: [],
    items: [
      {
        system: ITEM_SYSTEMS_BY_CLAIM_TYPE[type][0]!,
        code: DEMO_CODES[type],
        servicedDate: "2026-11-24",
        quantity: 2,
        unitPriceMinor: 15_050,
        ...(type === "oral" ? { tooth: "11" } : {}),
        maternity: false,
      },
    ],
    careSetting: {
      type,
      subtype,
      careTeam: type === "pharmacy" ? [] : DEMO_PARTIES.practitioners!.map((p) => ({ practitionerId: p.id, specialty: p.specialty })),
      ...(type === "pharmacy" ? { daysSupply: 30 } : { chiefComplaint: "Pain" }),
      ...(type === "vision" ? { visionPrescription: "VP-0001" } : {}),
      ...(stay ? { stay: { start: INPATIENT_ENCOUNTER.start, end: INPATIENT_ENCOUNTER.end } } : {}),
      // An inpatient stay (docs/decisions/083): each diagnosis present on admission or not; a prior authorization estimates the days.
      ...(requiresOnAdmission(type, subtype) ? { onAdmission: { "J06.9": "y" as const } } : {}),
      ...(requiredSupportingInfo(type, subtype, use).includes("estimated-Length-of-Stay") ? { estimatedStayDays: 3 } : {}),
      clinical: demoClinical(type, subtype, use),
    },
  });
}

export interface DemoMessage {
  /** File name stem: `claim-request-oral`, `status-check` … */
  name: string;
  event: string;
  claimType?: ClaimType;
  subtype?: ClaimSubtype;
  built: BuiltMessage;
}

const envelope = { providerLicense: PROVIDER_LICENSE, sourceEndpoint: DEMO_BASE, timestamp: AT };
const guid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** Every request event the portal sends, claims in each care setting. */
export function demoMessages(): DemoMessage[] {
  const out: DemoMessage[] = [];
  let n = 0;
  const ids = () => ({ bundleId: guid(++n), headerId: guid(++n) });
  const toPayer = { payerLicense: PAYER_LICENSE };
  for (const use of ["preauthorization", "claim"] as const) {
    for (const type of CLAIM_TYPES) {
      const subtype = SUBTYPES_BY_CLAIM_TYPE[type][0]!;
      const parties = subtype === "ip" || subtype === "emr" ? { ...DEMO_PARTIES, encounter: INPATIENT_ENCOUNTER } : DEMO_PARTIES;
      const event = use === "claim" ? "claim-request" : "priorauth-request";
      const built = assembleMessage({ ...envelope, ...ids(), event, focus: { ...demoClaim(type, use, subtype), id: guid(++n) }, parties, destination: toPayer });
      out.push({ name: `${event}-${type}`, event, claimType: type, subtype, built });
    }
  }
  const eligibility = buildEligibilityRequest({
    identifierValue: guid(++n),
    nationalId: DEMO_PARTIES.patient.id,
    insurerId: DEMO_PARTIES.insurer.id,
    providerOrgId: DEMO_PARTIES.provider.id,
    servicedDate: "2026-11-25",
    purposes: ["benefits", "validation"],
    categories: [],
    created: AT,
    facilityLocationId: DEMO_PARTIES.location!.id,
    priority: "normal",
    servicedPeriod: { start: "2026-11-25", end: "2026-11-25" },
    coverageRef: DEMO_PARTIES.coverage.id,
  });
  out.push({ name: "eligibility-request", event: "eligibility-request", built: assembleMessage({ ...envelope, ...ids(), event: "eligibility-request", focus: { ...eligibility, id: guid(++n) }, parties: DEMO_PARTIES, destination: toPayer }) });

  const claimIdentifier = { system: IDENTIFIER_SYSTEM, value: "professional-claim-0001" };
  const orgs: Resource[] = [providerResource(DEMO_PARTIES.provider), insurerResource(DEMO_PARTIES.insurer)];
  const status = buildStatusCheckTask({ id: guid(++n), identifier: claimIdentifier, providerOrgId: DEMO_PARTIES.provider.id, payer: { orgId: DEMO_PARTIES.insurer.id, license: PAYER_LICENSE }, authoredOn: AT });
  out.push({ name: "status-check", event: "status-check", built: assembleMessage({ ...envelope, ...ids(), event: "status-check", focus: status, resources: orgs, destination: toPayer }) });
  const cancel = buildCancelTask({ id: guid(++n), target: { identifier: claimIdentifier }, code: "cancel", reason: "WI", providerOrgId: DEMO_PARTIES.provider.id, insurerOrgId: DEMO_PARTIES.insurer.id, authoredOn: AT });
  out.push({ name: "cancel-request", event: "cancel-request", built: assembleMessage({ ...envelope, ...ids(), event: "cancel-request", focus: cancel, resources: orgs, destination: toPayer }) });
  const poll = buildPollTask({ id: guid(++n), requesterOrgId: DEMO_PARTIES.provider.id, count: 100, authoredOn: AT });
  out.push({ name: "poll-request", event: "poll-request", built: assembleMessage({ ...envelope, ...ids(), event: "poll-request", focus: poll, resources: [orgs[0]!], destination: { exchange: true } }) });
  const communication = buildCommunication({ id: guid(++n), requestId: guid(++n), about: { identifier: claimIdentifier }, providerOrgId: DEMO_PARTIES.provider.id, recipientOrgId: DEMO_PARTIES.insurer.id, text: "The lab report is attached.", sent: AT, requestIdentifier: { system: "https://payer.example/communication-request-id", value: "CR-0001" }, subjectPatientId: DEMO_PARTIES.patient.id });
  out.push({ name: "communication", event: "communication", built: assembleMessage({ ...envelope, ...ids(), event: "communication", focus: communication, parties: DEMO_PARTIES, destination: toPayer }) });
  const notice = buildPaymentNotice({
    id: guid(++n),
    paymentId: guid(++n),
    paymentIdentifier: { system: "https://payer.example/payment-id", value: "PAY-0001" },
    paymentStatus: "paid",
    amountMinor: 30_100,
    currency: "SAR",
    providerOrgId: DEMO_PARTIES.provider.id,
    paymentDate: "2026-11-25",
    created: AT,
    identifierSystem: `${DEMO_BASE}/payment-notice-id/clinic-1`,
  });
  out.push({ name: "payment-notice", event: "payment-notice", built: assembleMessage({ ...envelope, ...ids(), event: "payment-notice", focus: notice, resources: [orgs[0]!], destination: { exchange: true } }) });
  return out;
}
