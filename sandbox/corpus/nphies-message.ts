import { CODE_SYSTEMS, NATIONAL_EXCHANGE, nphies } from "../../lib/fhir";
import type { ProductSystem } from "../catalogue";

const { MDS_EXTENSIONS, MDS_SYSTEMS } = nphies;

/** The sandbox payers' member-number system (Coverage.identifier). */
const MEMBER_ID_SYSTEM = "http://payer.example.sa/memberid";

/**
 * Request messages written the way the exchange's implementation guide shows them (message
 * exchange, the StructureDefinitions, the Bundle examples): the MessageHeader first, every
 * resource the focus refers to inside the Bundle with a fullUrl, profiles on each resource,
 * licences as identifiers — with the licences and the patient/coverage/organization numbers of the
 * sandbox's seed. The corpus (corpus.test.ts) and the property test build on these; the reference
 * form and the serviced form are parameters (every form R4 allows).
 */

type Json = Record<string, unknown>;

export type ReferenceForm = "absolute" | "urn" | "relative" | "identifier";
export type ServicedForm = "date" | "period";

/** The clinic's FHIR base as its fullUrls name it (any base resolves: references are read in the Bundle). */
export const CLINIC_BASE = "http://clinic.example.sa/fhir";
export const CLINIC_LICENSE = "PR-CLINIC-001";
export const PAYERS = { rimal: "7000000101", wadi: "7000000102", nakheel: "7000000103" } as const;

/** Profile of each resource the corpus sends (the rule module's canonical URLs). */
export function profile(name: string): { profile: string[] } {
  return { profile: [nphies.profileUrl(name)] };
}

export interface Env {
  today: string;
  year: number;
  now: string;
}

export function env(now = new Date()): Env {
  return { today: now.toISOString().slice(0, 10), year: now.getUTCFullYear(), now: now.toISOString() };
}

let counter = 0;
/** A GUID that is unique in this process and readable in failures. */
export function guid(): string {
  counter += 1;
  const hex = counter.toString(16).padStart(12, "0");
  return `6c1d0e5a-7b2f-4c3d-8e9f-${hex}`;
}

export interface Party {
  resource: Json;
  /** How other resources refer to it, in the chosen form. */
  ref: Json;
  fullUrl: string;
}

/** An entry of the message with the reference the others use, in `form`. */
export function party(resource: Json, form: ReferenceForm): Party {
  const type = String(resource.resourceType);
  const id = String(resource.id);
  const identifier = (resource.identifier as Json[] | undefined)?.[0];
  const urn = `urn:uuid:${id}`;
  const rest = `${CLINIC_BASE}/${type}/${id}`;
  switch (form) {
    case "absolute":
      return { resource, fullUrl: rest, ref: { reference: rest } };
    case "urn":
      return { resource, fullUrl: urn, ref: { reference: urn } };
    case "relative":
      return { resource, fullUrl: rest, ref: { reference: `${type}/${id}` } };
    case "identifier":
      return { resource, fullUrl: rest, ref: { type, identifier: { system: identifier?.system, value: identifier?.value } } };
  }
}

export type PatientDocument = { kind: "national-id" | "iqama" | "passport"; value: string };

export function patient(doc: PatientDocument, id = guid()): Json {
  const system = doc.kind === "national-id" ? nphies.PATIENT_DOCUMENTS.nationalId.system : doc.kind === "iqama" ? nphies.PATIENT_DOCUMENTS.iqama.system : nphies.PATIENT_DOCUMENTS.passport.system;
  const type = doc.kind === "national-id" ? "NI" : doc.kind === "iqama" ? "PRC" : "PPN";
  return {
    resourceType: "Patient",
    id,
    meta: profile("patient"),
    extension: [{ url: nphies.EXTENSIONS.occupation, valueCodeableConcept: { coding: [{ system: nphies.SYSTEMS.occupation, code: "business" }] } }],
    identifier: [{ type: { coding: [{ system: nphies.SYSTEMS.identifierType, code: type }] }, system, value: doc.value }],
    active: true,
    name: [{ use: "official", text: "Training Patient", family: "Patient", given: ["Training"] }],
    gender: "female",
    birthDate: "1985-03-14",
    // MDS note 5.2 (p. 25): the marital status is mandated.
    maritalStatus: { coding: [{ system: MDS_SYSTEMS.maritalStatus, code: "M" }] },
  };
}

export function providerOrganization(license = CLINIC_LICENSE, id = guid()): Json {
  return {
    resourceType: "Organization",
    id,
    meta: profile("provider-organization"),
    extension: [{ url: nphies.EXTENSIONS.providerType, valueCodeableConcept: { coding: [{ system: nphies.SYSTEMS.providerType, code: "5" }] } }],
    identifier: [{ system: NATIONAL_EXCHANGE.providerLicense, value: license }],
    active: true,
    type: [{ coding: [{ system: nphies.SYSTEMS.organizationType, code: "prov" }] }],
    name: "Sandbox Family Clinic",
  };
}

export function insurerOrganization(license: string, id = guid()): Json {
  return {
    resourceType: "Organization",
    id,
    meta: profile("insurer-organization"),
    identifier: [{ system: NATIONAL_EXCHANGE.payerLicense, value: license }],
    active: true,
    type: [{ coding: [{ system: nphies.SYSTEMS.organizationType, code: "ins" }] }],
    name: "Payer",
  };
}

export function practitioner(license: string, id = guid()): Json {
  return {
    resourceType: "Practitioner",
    id,
    meta: profile("practitioner"),
    identifier: [{ type: { coding: [{ system: nphies.SYSTEMS.identifierType, code: "MD" }] }, system: nphies.LICENSES.practitioner, value: license }],
    active: true,
    name: [{ use: "official", text: "Dr. Training" }],
  };
}

export function coverage(memberId: string, beneficiary: Party, payor: Party, id = guid()): Json {
  return {
    resourceType: "Coverage",
    id,
    meta: profile("coverage"),
    identifier: [{ system: MEMBER_ID_SYSTEM, value: memberId }],
    status: "active",
    type: { coding: [{ system: nphies.SYSTEMS.coverageType, code: "EHCPOL" }] },
    policyHolder: beneficiary.ref,
    subscriber: beneficiary.ref,
    beneficiary: beneficiary.ref,
    relationship: { coding: [{ system: nphies.SYSTEMS.subscriberRelationship, code: "self" }] },
    payor: [payor.ref],
    class: [{ type: { coding: [{ system: nphies.SYSTEMS.coverageClass, code: "plan" }] }, value: "PLAN", name: "Plan" }],
  };
}

export interface Parties {
  patient: Party;
  provider: Party;
  insurer: Party;
  coverage: Party;
  /** The site (eligibility's facility). */
  location: Party;
  practitioner?: Party;
  /** Other people the message carries (a newborn's mother, the subscriber of her coverage). */
  related?: Party[];
}

export function location(provider: Party, id = guid()): Json {
  return {
    resourceType: "Location",
    id,
    meta: profile("location"),
    identifier: [{ system: nphies.LICENSES.location, value: "LOC-CLINIC-001" }],
    status: "active",
    name: "Sandbox Family Clinic, main site",
    managingOrganization: provider.ref,
  };
}

const concept = (system: string, code: string) => ({ coding: [{ system, code }] });

/**
 * The encounter an institutional, professional or oral claim names (extension-encounter), with
 * what the Minimum Data Set asks of its class (guide 9.19 and its notes): the service event type
 * of a professional or oral visit; triage, arrival, service start and (a claim) the department's
 * disposition of an emergency; the admission of a stay and (a claim) its discharge.
 */
export function encounter(ps: Parties, e: Env, classCode: "IMP" | "EMER" | "AMB", id = guid(), of: { type?: ClaimType; use?: "claim" | "preauthorization" | "predetermination" } = {}): Party {
  const X = MDS_EXTENSIONS;
  const S = MDS_SYSTEMS;
  const claim = of.use === "claim";
  const extension = [
    ...(of.type === "professional" || of.type === "oral" ? [{ url: X.serviceEventType, valueCodeableConcept: concept(S.serviceEventType, "ICSE") }] : []),
    ...(classCode === "EMER"
      ? [
          { url: X.triageCategory, valueCodeableConcept: concept(S.triageCategory, "U") },
          { url: X.triageDate, valueDateTime: `${e.today}T08:05:00+03:00` },
          { url: X.emergencyArrivalCode, valueCodeableConcept: concept(S.emergencyArrivalCode, "POV") },
          { url: X.emergencyServiceStart, valueDateTime: `${e.today}T08:10:00+03:00` },
          ...(claim ? [{ url: X.emergencyDepartmentDisposition, valueCodeableConcept: concept(S.emergencyDepartmentDisposition, "home") }] : []),
        ]
      : []),
  ];
  const hospitalization =
    classCode === "IMP"
      ? {
          extension: [
            { url: X.admissionSpecialty, valueCodeableConcept: concept(nphies.SYSTEMS.practiceCodes, "08.00") },
            { url: X.intendedLengthOfStay, valueCodeableConcept: concept(S.intendedLengthOfStay, "IO") },
            ...(claim ? [{ url: X.dischargeSpecialty, valueCodeableConcept: concept(nphies.SYSTEMS.practiceCodes, "08.00") }] : []),
          ],
          admitSource: concept(S.admitSource, "IA"),
          ...(claim ? { dischargeDisposition: concept(S.dischargeDisposition, "home") } : {}),
        }
      : undefined;
  return party(
    {
      resourceType: "Encounter",
      id,
      meta: profile("encounter"),
      ...(extension.length ? { extension } : {}),
      identifier: [{ system: `${CLINIC_BASE}/identifiers/encounter`, value: `E-${id.slice(-8)}` }],
      status: "finished",
      class: { system: nphies.SYSTEMS.encounterClass, code: classCode },
      subject: ps.patient.ref,
      period: { start: `${e.today}T08:00:00+03:00`, end: `${e.today}T18:00:00+03:00` },
      ...(hospitalization ? { hospitalization } : {}),
      serviceProvider: ps.provider.ref,
    },
    "absolute",
  );
}

export function parties(opts: { doc: PatientDocument; memberId: string; payer: string; form: ReferenceForm; practitionerLicense?: string }): Parties {
  const p = party(patient(opts.doc), opts.form);
  const provider = party(providerOrganization(), opts.form);
  const insurer = party(insurerOrganization(opts.payer), opts.form);
  const cov = party(coverage(opts.memberId, p, insurer), opts.form);
  return {
    patient: p,
    provider,
    insurer,
    coverage: cov,
    location: party(location(provider), opts.form),
    ...(opts.practitionerLicense ? { practitioner: party(practitioner(opts.practitionerLicense), opts.form) } : {}),
  };
}

/** The message Bundle: header first (urn:uuid), the focus, then the other entries. */
export function message(event: string, focus: Party, others: Party[], to: { payer: string } | "exchange", e: Env, headerId = guid()): Json {
  const receiver =
    to === "exchange"
      ? { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } }
      : { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: to.payer } };
  const header = {
    resourceType: "MessageHeader",
    id: headerId,
    meta: profile("message-header"),
    eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: event },
    destination: [{ endpoint: `http://nphies.sa/${to === "exchange" ? "nphies" : to.payer}`, receiver }],
    sender: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.providerLicense, value: CLINIC_LICENSE } },
    source: { endpoint: CLINIC_BASE },
    focus: [{ reference: focus.fullUrl }],
  };
  const seen = new Set<string>();
  const entries = [focus, ...others].filter((p) => (seen.has(p.fullUrl) ? false : (seen.add(p.fullUrl), true)));
  return {
    resourceType: "Bundle",
    id: guid(),
    meta: profile("bundle"),
    type: "message",
    timestamp: e.now,
    entry: [{ fullUrl: `urn:uuid:${headerId}`, resource: header }, ...entries.map((p) => ({ fullUrl: p.fullUrl, resource: p.resource }))],
  };
}

export function eligibilityRequest(ps: Parties, e: Env, serviced: { date: string } | { start: string; end: string }, id = guid()): Party {
  const resource = {
    resourceType: "CoverageEligibilityRequest",
    id,
    meta: profile("eligibility-request"),
    identifier: [{ system: `${CLINIC_BASE}/identifiers/coverageeligibilityrequest`, value: `ER-${id.slice(-8)}` }],
    status: "active",
    priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
    purpose: ["benefits", "validation"],
    patient: ps.patient.ref,
    ...("date" in serviced ? { servicedDate: serviced.date } : { servicedPeriod: { start: serviced.start, end: serviced.end } }),
    created: e.now,
    provider: ps.provider.ref,
    insurer: ps.insurer.ref,
    facility: ps.location.ref,
    insurance: [{ coverage: ps.coverage.ref }],
  };
  return party(resource, "absolute");
}

export type ClaimType = "institutional" | "professional" | "oral" | "pharmacy" | "vision";

export interface ItemInput {
  system: ProductSystem;
  code: string;
  /** Unit price in riyals. */
  price: number;
  quantity?: number;
  tooth?: string;
  /** Pharmacy: days supply of this item (a supportingInfo the item points to). */
  daysSupply?: number;
}

const SUBTYPE: Record<ClaimType, string> = { institutional: "ip", professional: "op", oral: "op", pharmacy: "op", vision: "op" };

export function claim(
  ps: Parties,
  e: Env,
  opts: {
    type: ClaimType;
    use: "claim" | "preauthorization" | "predetermination";
    items: ItemInput[];
    serviced: ServicedForm;
    identifier?: string;
    id?: string;
    encounter?: Party;
    /** Another subtype than the type's usual one (institutional: `ip` for an inpatient stay). */
    subtype?: "ip" | "op" | "emr";
    /** An inpatient prior authorization: the estimated length of stay (a valueQuantity; UCUM days unless another unit is given). */
    estimatedStay?: { value: number; code?: string };
    /** An inpatient stay: whether the diagnosis was present on admission (diagnosis-on-admission; another system when given). */
    onAdmission?: { code: string; system?: string };
  },
): Party {
  const id = opts.id ?? guid();
  // Every care setting but pharmacy states the chief complaint (the rule module's required information).
  const supportingInfo: Json[] =
    opts.type === "pharmacy" ? [] : [{ sequence: 1, category: { coding: [{ system: nphies.SYSTEMS.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Pain and fever for three days" } }];
  if (opts.estimatedStay) {
    const unit = opts.estimatedStay.code ?? "d";
    supportingInfo.push({
      sequence: supportingInfo.length + 1,
      category: { coding: [{ system: nphies.SYSTEMS.claimInformationCategory, code: "estimated-Length-of-Stay" }] },
      valueQuantity: { value: opts.estimatedStay.value, unit, system: nphies.SYSTEMS.ucum, code: unit },
    });
  }
  // The Minimum Data Set's clinical notes and investigation result (BV-00752, BV-00803 – BV-00806):
  // every claim type, both uses; not a prescriber's predetermination.
  if (opts.use !== "predetermination") {
    const add = (code: string, rest: Json) => supportingInfo.push({ sequence: supportingInfo.length + 1, category: { coding: [{ system: nphies.SYSTEMS.claimInformationCategory, code }] }, ...rest });
    add("investigation-result", { code: { coding: [{ system: MDS_SYSTEMS.investigationResult, code: "INP" }] } });
    add("treatment-plan", { valueString: "Paracetamol and review in one week" });
    add("patient-history", { valueString: "No chronic illness, no surgery, no regular medication" });
    add("physical-examination", { valueString: "Temperature 38.2, throat red, chest clear" });
    add("history-of-present-illness", { valueString: "Sore throat and fever for three days" });
  }
  const maternity = opts.use !== "predetermination" && (opts.type === "institutional" || opts.type === "professional" || opts.type === "pharmacy");
  const items = opts.items.map((it, i) => {
    const info: number[] = [];
    if (it.daysSupply !== undefined) {
      supportingInfo.push({ sequence: supportingInfo.length + 1, category: { coding: [{ system: nphies.SYSTEMS.claimInformationCategory, code: "days-supply" }] }, valueQuantity: { value: it.daysSupply, system: "http://unitsofmeasure.org", code: "d" } });
      info.push(supportingInfo.length);
    }
    const quantity = it.quantity ?? 1;
    return {
      sequence: i + 1,
      careTeamSequence: ps.practitioner ? [1] : undefined,
      diagnosisSequence: [1],
      ...(info.length ? { informationSequence: info } : {}),
      productOrService: { coding: [{ system: nphies.SYSTEMS[it.system], code: it.code }] },
      ...(opts.serviced === "date" ? { servicedDate: e.today } : { servicedPeriod: { start: `${e.today}T08:00:00+03:00`, end: `${e.today}T10:00:00+03:00` } }),
      quantity: { value: quantity },
      unitPrice: { value: it.price, currency: "SAR" },
      net: { value: Math.round(it.price * quantity * 100) / 100, currency: "SAR" },
      ...(it.tooth ? { bodySite: { coding: [{ system: nphies.SYSTEMS.fdiOralRegion, code: it.tooth }] } } : {}),
      ...(maternity ? { extension: [{ url: MDS_EXTENSIONS.maternity, valueBoolean: false }] } : {}),
    };
  });
  const resource: Json = {
    resourceType: "Claim",
    id,
    // A prescriber's predetermination declares the prescriber profile (guide 7.11, 9.6).
    meta: profile(opts.use === "predetermination" ? "prescriber-priorauth" : `${opts.type}-${opts.use === "claim" ? "claim" : "priorauth"}`),
    ...(opts.encounter ? { extension: [{ url: nphies.EXTENSIONS.encounter, valueReference: opts.encounter.ref }] } : {}),
    identifier: [{ system: `${CLINIC_BASE}/identifiers/claim`, value: opts.identifier ?? `CL-${id.slice(-8)}` }],
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: opts.type }] },
    subType: { coding: [{ system: nphies.SYSTEMS.claimSubtype, code: opts.subtype ?? SUBTYPE[opts.type] }] },
    use: opts.use,
    patient: ps.patient.ref,
    created: e.now,
    insurer: ps.insurer.ref,
    provider: ps.provider.ref,
    priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
    payee: { type: { coding: [{ system: nphies.SYSTEMS.payeeType, code: "provider" }] } },
    ...(ps.practitioner
      ? {
          careTeam: [
            {
              sequence: 1,
              provider: ps.practitioner.ref,
              role: { coding: [{ system: nphies.SYSTEMS.careTeamRole, code: "primary" }] },
              qualification: { coding: [{ system: nphies.SYSTEMS.practiceCodes, code: "08.00" }] },
            },
          ],
        }
      : {}),
    ...(supportingInfo.length ? { supportingInfo } : {}),
    diagnosis: [
      {
        sequence: 1,
        diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code: "J06.9" }] },
        type: [{ coding: [{ system: nphies.SYSTEMS.diagnosisType, code: "principal" }] }],
        ...(opts.type === "institutional" && opts.use === "claim" ? { extension: [{ url: MDS_EXTENSIONS.conditionOnset, valueCodeableConcept: concept(MDS_SYSTEMS.conditionOnset, "NR") }] } : {}),
        ...(opts.onAdmission ? { onAdmission: { coding: [{ system: opts.onAdmission.system ?? nphies.SYSTEMS.diagnosisOnAdmission, code: opts.onAdmission.code }] } } : {}),
      },
    ],
    insurance: [{ sequence: 1, focal: true, coverage: ps.coverage.ref }],
    item: items.map((it) => Object.fromEntries(Object.entries(it).filter(([, v]) => v !== undefined))),
    total: { value: Math.round(opts.items.reduce((s, it) => s + it.price * (it.quantity ?? 1), 0) * 100) / 100, currency: "SAR" },
  };
  return party(resource, "absolute");
}

/** A Task naming the clinic's claim by its identifier (status-check, cancel-request). */
export function claimTask(code: "status" | "cancel" | "nullify", claimIdentifier: string, provider: Party, e: Env, reason?: string): Party {
  const id = guid();
  return party(
    {
      resourceType: "Task",
      id,
      meta: profile(code === "status" ? "status-check" : "cancel-request"),
      identifier: [{ system: `${CLINIC_BASE}/identifiers/task`, value: `T-${id.slice(-8)}` }],
      status: "requested",
      intent: "order",
      priority: "routine",
      code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code }] },
      focus: { type: "Claim", identifier: { system: `${CLINIC_BASE}/identifiers/claim`, value: claimIdentifier } },
      ...(reason ? { reasonCode: { coding: [{ system: NATIONAL_EXCHANGE.taskReasonSystem, code: reason }] } } : {}),
      authoredOn: e.now,
      requester: provider.ref,
      owner: { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: PAYERS.rimal } },
    },
    "absolute",
  );
}

export function pollTask(provider: Party, e: Env, include: string[] = []): Party {
  const id = guid();
  return party(
    {
      resourceType: "Task",
      id,
      meta: profile("poll-request"),
      identifier: [{ system: `${CLINIC_BASE}/identifiers/poll`, value: `P-${id.slice(-8)}` }],
      status: "requested",
      intent: "order",
      priority: "routine",
      code: { coding: [{ system: NATIONAL_EXCHANGE.taskCodeSystem, code: "poll" }] },
      authoredOn: e.now,
      requester: provider.ref,
      owner: { identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } },
      input: [
        { type: { coding: [{ system: NATIONAL_EXCHANGE.taskInputTypeSystem, code: "count" }] }, valuePositiveInt: 10 },
        ...include.map((code) => ({ type: { coding: [{ system: NATIONAL_EXCHANGE.taskInputTypeSystem, code: "include-message-type" }] }, valueCode: code })),
      ],
    },
    "absolute",
  );
}

export function communication(ps: Parties, claimIdentifier: string, e: Env, basedOn?: { system?: string; value: string }): Party {
  const id = guid();
  return party(
    {
      resourceType: "Communication",
      id,
      meta: profile("communication"),
      identifier: [{ system: `${CLINIC_BASE}/identifiers/communication`, value: `C-${id.slice(-8)}` }],
      ...(basedOn ? { basedOn: [{ type: "CommunicationRequest", identifier: basedOn }] } : {}),
      status: "completed",
      category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/communication-category", code: "notification" }] }],
      priority: "routine",
      subject: ps.patient.ref,
      about: [{ type: "Claim", identifier: { system: `${CLINIC_BASE}/identifiers/claim`, value: claimIdentifier } }],
      sent: e.now,
      recipient: [ps.insurer.ref],
      sender: ps.provider.ref,
      payload: [{ contentString: "Medical report: the patient presented with an upper respiratory infection." }],
    },
    "absolute",
  );
}

export function paymentNotice(provider: Party, paymentIdentifier: { system?: string; value: string }, amount: number, e: Env): Party {
  const id = guid();
  return party(
    {
      resourceType: "PaymentNotice",
      id,
      meta: profile("payment-notice"),
      identifier: [{ system: `${CLINIC_BASE}/identifiers/paymentnotice`, value: `PN-${id.slice(-8)}` }],
      status: "active",
      created: e.now,
      provider: provider.ref,
      payment: { type: "PaymentReconciliation", identifier: paymentIdentifier },
      recipient: { identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } },
      amount: { value: amount, currency: "SAR" },
      paymentStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/paymentstatus", code: "paid" }] },
    },
    "absolute",
  );
}
