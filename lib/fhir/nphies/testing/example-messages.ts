import { EXTENSIONS } from "../extensions";
import type { RequestEvent } from "../events";
import { claimProfile, profileOf, type ClaimType, type ClaimUse } from "../profiles";
import { LICENSES, PATIENT_DOCUMENTS, SYSTEMS, SUBTYPES_BY_CLAIM_TYPE, type ClaimSubtype } from "../terminology";

/**
 * Valid request messages of every event and care setting, written by us from the guide's rules,
 * for tests: the rule checker's own tests mutate them one rule at a time, the sandbox's corpus and
 * the portal's conformance tests start from them. Fictional licences and identities only.
 */

type Json = Record<string, unknown>;
export const EXAMPLE_BASE = "http://provider.example.com/fhir";
export const EXAMPLE_PROVIDER_LICENSE = "PR-FHIR";
export const EXAMPLE_PAYER_LICENSE = "INS-FHIR";

let counter = 0;
/** A deterministic GUID (tests compare messages; crypto.randomUUID would differ every run). */
export function exampleGuid(seed = ++counter): string {
  const hex = seed.toString(16).padStart(12, "0").slice(-12);
  return `00000000-0000-4000-8000-${hex}`;
}

const url = (type: string, id: string) => `${EXAMPLE_BASE}/${type}/${id}`;
const ref = (type: string, id: string) => ({ reference: url(type, id) });

export function examplePatient(document: keyof typeof PATIENT_DOCUMENTS = "nationalId"): Json {
  const values = { nationalId: "1000000001", iqama: "2000000002", passport: "P1234567", borderNumber: "3000000003" } as const;
  return {
    resourceType: "Patient",
    id: "pat-1",
    meta: { profile: [profileOf("patient")] },
    extension: [{ url: EXTENSIONS.occupation, valueCodeableConcept: { coding: [{ system: SYSTEMS.occupation, code: "business" }] } }],
    identifier: [{ type: { coding: [{ system: SYSTEMS.identifierType, code: PATIENT_DOCUMENTS[document].type }] }, system: PATIENT_DOCUMENTS[document].system, value: values[document] }],
    active: true,
    name: [{ use: "official", text: "Demo Patient", family: "Patient", given: ["Demo"] }],
    gender: "male",
    birthDate: "1985-04-12",
  };
}

export function exampleProvider(): Json {
  return {
    resourceType: "Organization",
    id: "prov-1",
    meta: { profile: [profileOf("providerOrganization")] },
    extension: [{ url: EXTENSIONS.providerType, valueCodeableConcept: { coding: [{ system: SYSTEMS.providerType, code: "5" }] } }],
    identifier: [{ system: LICENSES.provider, value: EXAMPLE_PROVIDER_LICENSE }],
    active: true,
    type: [{ coding: [{ system: SYSTEMS.organizationType, code: "prov" }] }],
    name: "Demo Clinic",
  };
}

export function exampleInsurer(): Json {
  return {
    resourceType: "Organization",
    id: "ins-1",
    meta: { profile: [profileOf("insurerOrganization")] },
    identifier: [{ system: LICENSES.payer, value: EXAMPLE_PAYER_LICENSE }],
    active: true,
    type: [{ coding: [{ system: SYSTEMS.organizationType, code: "ins" }] }],
    name: "Demo Insurer",
  };
}

export function exampleCoverage(): Json {
  return {
    resourceType: "Coverage",
    id: "cov-1",
    meta: { profile: [profileOf("coverage")] },
    identifier: [{ system: "http://insurer.example.com/memberid", value: "M-0001" }],
    status: "active",
    type: { coding: [{ system: SYSTEMS.coverageType, code: "EHCPOL" }] },
    policyHolder: ref("Patient", "pat-1"),
    subscriber: ref("Patient", "pat-1"),
    beneficiary: ref("Patient", "pat-1"),
    relationship: { coding: [{ system: SYSTEMS.subscriberRelationship, code: "self" }] },
    payor: [ref("Organization", "ins-1")],
    class: [{ type: { coding: [{ system: SYSTEMS.coverageClass, code: "plan" }] }, value: "GOLD", name: "Gold" }],
  };
}

export function examplePractitioner(): Json {
  return {
    resourceType: "Practitioner",
    id: "pr-1",
    meta: { profile: [profileOf("practitioner")] },
    identifier: [{ system: LICENSES.practitioner, value: "DR-0001" }],
    active: true,
    name: [{ text: "Dr Demo" }],
  };
}

export function exampleEncounter(subtype: ClaimSubtype): Json {
  const classCode = subtype === "ip" ? "IMP" : subtype === "emr" ? "EMER" : "AMB";
  return {
    resourceType: "Encounter",
    id: "enc-1",
    meta: { profile: [profileOf("encounter")] },
    identifier: [{ system: `${EXAMPLE_BASE}/encounter`, value: "E-1" }],
    status: "finished",
    class: { system: SYSTEMS.encounterClass, code: classCode },
    subject: ref("Patient", "pat-1"),
    period: { start: "2026-11-20T08:00:00+03:00", end: "2026-11-22T10:00:00+03:00" },
    serviceProvider: ref("Organization", "prov-1"),
  };
}

const ITEM_CODE: Record<ClaimType, { system: string; code: string }> = {
  institutional: { system: SYSTEMS.services, code: "83600-00-00" },
  professional: { system: SYSTEMS.services, code: "83600-00-00" },
  oral: { system: SYSTEMS.oralHealthOp, code: "97521-00-00" },
  pharmacy: { system: SYSTEMS.medicationCodes, code: "06285074000109" },
  vision: { system: SYSTEMS.services, code: "96081-00-00" },
};

export function exampleClaim(type: ClaimType, use: ClaimUse, subtype: ClaimSubtype = SUBTYPES_BY_CLAIM_TYPE[type][0]!): Json {
  const code = ITEM_CODE[type];
  const item: Json = {
    sequence: 1,
    careTeamSequence: type === "pharmacy" ? undefined : [1],
    diagnosisSequence: [1],
    informationSequence: [1],
    productOrService: { coding: [{ system: code.system, code: code.code }] },
    servicedDate: "2026-11-20",
    quantity: { value: 2 },
    unitPrice: { value: 150, currency: "SAR" },
    net: { value: 345, currency: "SAR" },
    extension: [
      { url: EXTENSIONS.tax, valueMoney: { value: 45, currency: "SAR" } },
      { url: EXTENSIONS.patientShare, valueMoney: { value: 30, currency: "SAR" } },
    ],
  };
  if (type === "pharmacy") delete item.careTeamSequence;
  if (type === "oral") item.bodySite = { coding: [{ system: SYSTEMS.fdiOralRegion, code: "11" }] };
  const supportingInfo: Json[] =
    type === "pharmacy"
      ? [{ sequence: 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "days-supply" }] }, valueQuantity: { value: 30 } }]
      : [{ sequence: 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Pain" } }];
  const claim: Json = {
    resourceType: "Claim",
    id: `claim-${type}-${use}`,
    meta: { profile: [claimProfile(type, use)] },
    extension: [{ url: EXTENSIONS.episode, valueIdentifier: { system: `${EXAMPLE_BASE}/episode`, value: "EP-1" } }],
    identifier: [{ system: `${EXAMPLE_BASE}/claim`, value: `C-${type}-${use}` }],
    status: "active",
    type: { coding: [{ system: SYSTEMS.claimType, code: type }] },
    subType: { coding: [{ system: SYSTEMS.claimSubtype, code: subtype }] },
    use,
    patient: ref("Patient", "pat-1"),
    created: "2026-11-20T09:00:00+03:00",
    insurer: ref("Organization", "ins-1"),
    provider: ref("Organization", "prov-1"),
    priority: { coding: [{ system: SYSTEMS.processPriority, code: "normal" }] },
    payee: { type: { coding: [{ system: SYSTEMS.payeeType, code: "provider" }] } },
    supportingInfo,
    diagnosis: [
      {
        sequence: 1,
        diagnosisCodeableConcept: { coding: [{ system: SYSTEMS.icd10am, code: "K02.1" }] },
        type: [{ coding: [{ system: SYSTEMS.diagnosisType, code: "principal" }] }],
      },
    ],
    insurance: [{ sequence: 1, focal: true, coverage: ref("Coverage", "cov-1") }],
    item: [item],
    total: { value: 345, currency: "SAR" },
  };
  if (type !== "pharmacy") {
    claim.careTeam = [
      {
        sequence: 1,
        provider: ref("Practitioner", "pr-1"),
        role: { coding: [{ system: SYSTEMS.careTeamRole, code: "primary" }] },
        qualification: { coding: [{ system: SYSTEMS.practiceCodes, code: "08.00" }] },
      },
    ];
  }
  if (subtype === "ip" || subtype === "emr") (claim.extension as Json[]).push({ url: EXTENSIONS.encounter, valueReference: ref("Encounter", "enc-1") });
  if (type === "institutional" && subtype === "ip") {
    // An inpatient stay: each diagnosis present on admission or not (BV-00027); a prior
    // authorization estimates the length of stay in days (BV-00802).
    for (const d of claim.diagnosis as Json[]) d.onAdmission = { coding: [{ system: SYSTEMS.diagnosisOnAdmission, code: "y", display: "Yes" }] };
    if (use === "preauthorization") {
      supportingInfo.push({ sequence: 2, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "estimated-Length-of-Stay" }] }, valueQuantity: { value: 3, unit: "d", system: SYSTEMS.ucum, code: "d" } });
    }
  }
  return claim;
}

function header(event: RequestEvent, focus: string, toExchange = false): Json {
  return {
    resourceType: "MessageHeader",
    id: exampleGuid(),
    meta: { profile: [profileOf("messageHeader")] },
    eventCoding: { system: SYSTEMS.messageEvents, code: event },
    destination: [
      {
        endpoint: toExchange ? "http://nphies.sa/license/nphies" : `http://nphies.sa/license/payer-license/${EXAMPLE_PAYER_LICENSE}`,
        receiver: { type: "Organization", identifier: toExchange ? { system: LICENSES.nphies, value: "NPHIES" } : { system: LICENSES.payer, value: EXAMPLE_PAYER_LICENSE } },
      },
    ],
    sender: { type: "Organization", identifier: { system: LICENSES.provider, value: EXAMPLE_PROVIDER_LICENSE } },
    source: { endpoint: EXAMPLE_BASE },
    focus: [{ reference: focus }],
  };
}

export function exampleMessage(event: RequestEvent, resources: Json[], options: { toExchange?: boolean } = {}): Json {
  const focus = resources[0]!;
  const focusUrl = url(String(focus.resourceType), String(focus.id));
  return {
    resourceType: "Bundle",
    id: exampleGuid(),
    meta: { profile: [profileOf("bundle")] },
    type: "message",
    timestamp: "2026-11-20T09:00:05+03:00",
    entry: [
      { fullUrl: `urn:uuid:${exampleGuid()}`, resource: header(event, focusUrl, options.toExchange) },
      ...resources.map((resource) => ({ fullUrl: url(String(resource.resourceType), String(resource.id)), resource })),
    ],
  };
}

const parties = () => [examplePatient(), exampleCoverage(), exampleProvider(), exampleInsurer()];

export function exampleClaimMessage(type: ClaimType, use: ClaimUse, subtype?: ClaimSubtype): Json {
  const claim = exampleClaim(type, use, subtype);
  const sub = subtype ?? SUBTYPES_BY_CLAIM_TYPE[type][0]!;
  const extra = [...(type === "pharmacy" ? [] : [examplePractitioner()]), ...(sub === "ip" || sub === "emr" ? [exampleEncounter(sub)] : [])];
  return exampleMessage(use === "claim" ? "claim-request" : "priorauth-request", [claim, ...parties(), ...extra]);
}

export function exampleEligibilityMessage(): Json {
  const request = {
    resourceType: "CoverageEligibilityRequest",
    id: "elig-1",
    meta: { profile: [profileOf("eligibilityRequest")] },
    identifier: [{ system: `${EXAMPLE_BASE}/eligibility`, value: "EL-1" }],
    status: "active",
    priority: { coding: [{ system: SYSTEMS.processPriority, code: "normal" }] },
    purpose: ["benefits", "validation"],
    patient: ref("Patient", "pat-1"),
    servicedPeriod: { start: "2026-11-20", end: "2026-11-20" },
    created: "2026-11-20T09:00:00+03:00",
    provider: ref("Organization", "prov-1"),
    insurer: ref("Organization", "ins-1"),
    facility: ref("Location", "loc-1"),
    insurance: [{ coverage: ref("Coverage", "cov-1") }],
  };
  const location = {
    resourceType: "Location",
    id: "loc-1",
    meta: { profile: [profileOf("location")] },
    identifier: [{ system: LICENSES.location, value: "LOC-1" }],
    status: "active",
    name: "Main site",
    managingOrganization: ref("Organization", "prov-1"),
  };
  return exampleMessage("eligibility-request", [request, ...parties(), location]);
}

function task(kind: "cancel" | "status" | "poll"): Json {
  const profileRole = kind === "cancel" ? "cancelRequest" : kind === "status" ? "statusCheck" : "pollRequest";
  const resource: Json = {
    resourceType: "Task",
    id: `task-${kind}`,
    meta: { profile: [profileOf(profileRole)] },
    identifier: [{ system: `${EXAMPLE_BASE}/task`, value: `T-${kind}` }],
    status: "requested",
    intent: "order",
    code: { coding: [{ system: SYSTEMS.taskCode, code: kind }] },
    requester: ref("Organization", "prov-1"),
    owner: kind === "poll" ? { identifier: { system: LICENSES.nphies, value: "NPHIES" } } : ref("Organization", "ins-1"),
    authoredOn: "2026-11-20T09:00:00+03:00",
  };
  if (kind !== "poll") resource.focus = { type: "Claim", identifier: { system: `${EXAMPLE_BASE}/claim`, value: "C-professional-claim" } };
  if (kind === "cancel") resource.reasonCode = { coding: [{ system: SYSTEMS.taskReason, code: "WI" }] };
  return resource;
}

export function exampleTaskMessage(kind: "cancel" | "status" | "poll"): Json {
  const event: RequestEvent = kind === "cancel" ? "cancel-request" : kind === "status" ? "status-check" : "poll-request";
  return exampleMessage(event, kind === "poll" ? [task(kind), exampleProvider()] : [task(kind), exampleProvider(), exampleInsurer()], { toExchange: kind === "poll" });
}

export function exampleCommunicationMessage(): Json {
  const communication = {
    resourceType: "Communication",
    id: "comm-1",
    meta: { profile: [profileOf("communication")] },
    identifier: [{ system: `${EXAMPLE_BASE}/communication`, value: "CM-1" }],
    status: "completed",
    subject: ref("Patient", "pat-1"),
    about: [{ type: "Claim", identifier: { system: `${EXAMPLE_BASE}/claim`, value: "C-professional-claim" } }],
    sent: "2026-11-20T09:00:00+03:00",
    sender: ref("Organization", "prov-1"),
    recipient: [ref("Organization", "ins-1")],
    payload: [{ contentString: "Lab report attached on paper." }],
  };
  return exampleMessage("communication", [communication, examplePatient(), exampleProvider(), exampleInsurer()]);
}

export function examplePaymentNoticeMessage(): Json {
  const notice = {
    resourceType: "PaymentNotice",
    id: "pn-1",
    meta: { profile: [profileOf("paymentNotice")] },
    identifier: [{ system: `${EXAMPLE_BASE}/paymentnotice`, value: "PN-1" }],
    status: "active",
    created: "2026-11-20T09:00:00+03:00",
    payment: { type: "PaymentReconciliation", identifier: { system: "http://insurer.example.com/payment", value: "PAY-1" } },
    recipient: { identifier: { system: LICENSES.nphies, value: "NPHIES" } },
    amount: { value: 345, currency: "SAR" },
    paymentStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/paymentstatus", code: "paid" }] },
  };
  return exampleMessage("payment-notice", [notice, exampleProvider()], { toExchange: true });
}

/**
 * A newborn's request (extension-newborn): the newborn Patient (born 2026-11-10, ten days before
 * the service date) billed under the mother's Coverage, whose subscriber and beneficiary are the
 * mother — a second Patient entry. Claims carry the birth weight in kilograms.
 */
function newbornParties(): { newborn: Json; mother: Json; coverage: Json } {
  const mother: Json = { ...examplePatient(), id: "pat-mother", gender: "female", birthDate: "1992-06-01" };
  (mother.identifier as Json[])[0] = { ...(mother.identifier as Json[])[0], value: "1000000009" };
  const newborn = { ...examplePatient(), id: "pat-1", name: [{ use: "official", text: "Baby Demo", family: "Demo", given: ["Baby"] }], gender: "female", birthDate: "2026-11-10" };
  const coverage = { ...exampleCoverage(), policyHolder: ref("Patient", "pat-mother"), subscriber: ref("Patient", "pat-mother"), beneficiary: ref("Patient", "pat-mother") };
  return { newborn, mother, coverage };
}

const newbornFlag = { url: EXTENSIONS.newborn, valueBoolean: true };

export function exampleNewbornClaimMessage(type: ClaimType = "professional", use: ClaimUse = "claim"): Json {
  const message = exampleClaimMessage(type, use);
  const { newborn, mother, coverage } = newbornParties();
  const entries = message.entry as Json[];
  for (const entry of entries) {
    const resource = entry.resource as Json;
    if (resource.resourceType === "Patient") entry.resource = newborn;
    if (resource.resourceType === "Coverage") entry.resource = coverage;
    if (resource.resourceType === "Claim") {
      resource.extension = [...((resource.extension as Json[] | undefined) ?? []), newbornFlag];
      const infos = resource.supportingInfo as Json[];
      infos.push({ sequence: infos.length + 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "birth-weight" }] }, valueQuantity: { value: 3.2, system: SYSTEMS.ucum, code: "kg", unit: "kg" } });
    }
  }
  entries.push({ fullUrl: url("Patient", "pat-mother"), resource: mother });
  return message;
}

export function exampleNewbornEligibilityMessage(): Json {
  const message = exampleEligibilityMessage();
  const { newborn, mother, coverage } = newbornParties();
  const entries = message.entry as Json[];
  for (const entry of entries) {
    const resource = entry.resource as Json;
    if (resource.resourceType === "Patient") entry.resource = newborn;
    if (resource.resourceType === "Coverage") entry.resource = coverage;
    if (resource.resourceType === "CoverageEligibilityRequest") resource.extension = [newbornFlag];
  }
  entries.push({ fullUrl: url("Patient", "pat-mother"), resource: mother });
  return message;
}
