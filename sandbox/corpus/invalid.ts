import * as m from "./nphies-message";
import type { Env } from "./nphies-message";
import { asNewborn, claimMessage, eligibilityMessage, inpatientPreauthMessage, newbornParties, vip } from "./valid";

/**
 * Invalid requests, at least one per rule the sandbox enforces in strict conformance: a valid
 * message of the corpus with one defect. Each names the answer the exchange gives — a business
 * answer carrying the error (`business`) or an OperationOutcome for a message it cannot answer
 * (`operation-outcome`) — the exchange-style code and the element (`expression`, FHIRPath from the
 * Bundle).
 */

type Json = Record<string, unknown>;

export interface InvalidCase {
  rule: string;
  name: string;
  event: string;
  build(e: Env): Json | string;
  expect: { as: "business" | "operation-outcome"; code: string; expression: string };
}

const entry = (bundle: Json, i: number) => (bundle.entry as Json[])[i]!.resource as Json;
const claimOf = (bundle: Json) => entry(bundle, 1);
const professional = (e: Env, identifier: string) =>
  claimMessage(vip("absolute", "PRAC-10001"), e, { type: "professional", use: "claim", serviced: "date", identifier, items: [{ system: "services", code: "SVC-0101", price: 150 }] });

const newbornClaim = (e: Env, identifier: string, bornDaysBefore?: number) =>
  claimMessage(newbornParties(e, { practitionerLicense: "PRAC-10001", ...(bornDaysBefore !== undefined ? { bornDaysBefore } : {}) }), e, { type: "professional", use: "claim", serviced: "date", identifier, items: [{ system: "services", code: "SVC-0101", price: 150 }] });

const indexOfType = (bundle: Json, type: string) => (bundle.entry as Json[]).findIndex((x) => (x.resource as Json).resourceType === type);
const ofType = (bundle: Json, type: string) => entry(bundle, indexOfType(bundle, type));
const infoIndex = (bundle: Json, category: string) => (claimOf(bundle).supportingInfo as Json[]).findIndex((i) => ((i.category as Json).coding as Json[])[0]!.code === category);
const withoutInfo = (bundle: Json, category: string) => {
  const claim = claimOf(bundle);
  claim.supportingInfo = (claim.supportingInfo as Json[]).filter((i) => ((i.category as Json).coding as Json[])[0]!.code !== category);
  return bundle;
};
const emergency = (e: Env, identifier: string) =>
  claimMessage(vip("absolute", "PRAC-10001"), e, { type: "professional", subtype: "emr", use: "claim", serviced: "date", identifier, items: [{ system: "services", code: "SVC-0201", price: 400 }] });
const extensionNamed = (resource: Json, name: string) => (resource.extension as Json[]).findIndex((x) => String(x.url).endsWith(`extension-${name}`));

/**
 * Messages the exchange's validator refuses before any business rule (decision 104): R4 as it
 * checks it — datatypes, elements R4 does not define, cardinality, reference targets — and the
 * publisher's error samples (the same code system twice, two codes of one value set, an element the
 * profiles do not define, a code outside its activation period).
 */
const MALFORMED: InvalidCase[] = [
  {
    rule: "structure",
    name: "a vital sign's value written as a string (\"7\")",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-NUMBER-STRING");
      (claimOf(b).supportingInfo as Json[]).push({ sequence: 7, category: { coding: [{ system: "http://nphies.sa/terminology/CodeSystem/claim-information-category", code: "pulse" }] }, valueQuantity: { value: "7", system: "http://unitsofmeasure.org", code: "/min" } });
      return b;
    },
    expect: { as: "business", code: "DT-90001", expression: "Bundle.entry[1].resource.supportingInfo[6].valueQuantity.value" },
  },
  {
    rule: "structure",
    name: "a VisionPrescription's sphere written as a string (\"1.5\")",
    event: "claim-request",
    build: (e) => {
      const b = claimMessage(vip("absolute", "PRAC-10003"), e, { type: "vision", use: "claim", serviced: "date", identifier: "BAD-SPHERE", items: [{ system: "services", code: "SVC-0401", price: 200 }] });
      const id = "6c1d0e5a-7b2f-4c3d-8e9f-0000000ff001";
      (b.entry as Json[]).push({
        fullUrl: `${m.CLINIC_BASE}/VisionPrescription/${id}`,
        resource: {
          resourceType: "VisionPrescription",
          id,
          meta: m.profile("vision-prescription"),
          status: "active",
          created: e.now,
          patient: { reference: (b.entry as Json[])[2]!.fullUrl },
          dateWritten: e.now,
          prescriber: { reference: (b.entry as Json[])[6]!.fullUrl },
          lensSpecification: [{ product: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-visionprescriptionproduct", code: "lens" }] }, eye: "right", sphere: "1.5" }],
        },
      });
      claimOf(b).prescription = { reference: `${m.CLINIC_BASE}/VisionPrescription/${id}` };
      return b;
    },
    expect: { as: "business", code: "DT-90001", expression: "Bundle.entry[7].resource.lensSpecification[0].sphere" },
  },
  {
    rule: "structure",
    name: "a malformed date (2026-02-30)",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-DATE");
      ((claimOf(b).item as Json[])[0]!).servicedDate = "2026-02-30";
      return b;
    },
    expect: { as: "business", code: "DT-90001", expression: "Bundle.entry[1].resource.item[0].servicedDate" },
  },
  {
    rule: "structureElement",
    name: "an element R4 does not define on a Claim",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-ELEMENT");
      claimOf(b).procedureCode = { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] };
      return b;
    },
    expect: { as: "business", code: "DT-90002", expression: "Bundle.entry[1].resource.procedureCode" },
  },
  {
    rule: "structureCardinality",
    name: "two patients where R4 takes one",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-CARDINALITY");
      claimOf(b).patient = [claimOf(b).patient];
      return b;
    },
    expect: { as: "business", code: "DT-90003", expression: "Bundle.entry[1].resource.patient" },
  },
  {
    rule: "structureReference",
    name: "Claim.prescription to a resource type that does not exist",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-PRESCRIPTION");
      claimOf(b).prescription = { reference: "Prescription/123" };
      return b;
    },
    expect: { as: "business", code: "DT-90004", expression: "Bundle.entry[1].resource.prescription.reference" },
  },
  {
    rule: "structureReference",
    name: "Claim.prescription to an entry of the wrong type (the MessageHeader, by urn:uuid)",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-PRESCRIPTION-ENTRY");
      claimOf(b).prescription = { reference: (b.entry as Json[])[0]!.fullUrl };
      return b;
    },
    expect: { as: "business", code: "DT-90004", expression: "Bundle.entry[1].resource.prescription" },
  },
  {
    rule: "codingSystemTwice",
    name: "one CodeableConcept with the same code system twice",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-SYSTEM-TWICE");
      const coding = ((claimOf(b).item as Json[])[0]!.productOrService as Json).coding as Json[];
      coding.push({ ...coding[0]!, code: "SVC-0102" });
      return b;
    },
    expect: { as: "business", code: "IC-90011", expression: "Bundle.entry[1].resource.item[0].productOrService.coding[1]" },
  },
  {
    rule: "codingTwoCodes",
    name: "one item coded twice from its value set (a service and a procedure)",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-TWO-CODES");
      const coding = ((claimOf(b).item as Json[])[0]!.productOrService as Json).coding as Json[];
      coding.push({ system: "http://nphies.sa/terminology/CodeSystem/procedures", code: "PRC-1001" });
      return b;
    },
    expect: { as: "business", code: "IC-90012", expression: "Bundle.entry[1].resource.item[0].productOrService.coding[1]" },
  },
  {
    rule: "profileElement",
    name: "an extension of the exchange that its profiles do not define",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-EXTENSION");
      (claimOf(b).extension as Json[]).push({ url: "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-discount", valueDecimal: 10 });
      return b;
    },
    expect: { as: "business", code: "BV-90027", expression: `Bundle.entry[1].resource.extension[1].url` },
  },
  {
    rule: "codeInactive",
    name: "an item whose code is not yet active on its service date (PKG-0502 from 2025)",
    event: "claim-request",
    build: (e) => {
      const b = claimMessage(vip("absolute", "PRAC-10005"), e, { type: "institutional", use: "claim", serviced: "date", identifier: "BAD-INACTIVE", items: [{ system: "services", code: "PKG-0502", price: 11_000 }] });
      ((claimOf(b).item as Json[])[0]!).servicedDate = "2024-06-01";
      return b;
    },
    expect: { as: "business", code: "BV-90029", expression: "Bundle.entry[1].resource.item[0].productOrService" },
  },
];

/** The Minimum Data Set (decision 103, 104): one defect each in a valid MDS-era request. */
const MDS: InvalidCase[] = [
  {
    rule: "encounterRequired",
    name: "an outpatient professional claim without its encounter",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-NO-ENCOUNTER");
      delete claimOf(b).extension;
      return b;
    },
    expect: { as: "business", code: "BV-90015", expression: "Bundle.entry[1].resource.extension" },
  },
  {
    rule: "encounterClassEmergency",
    name: "an emergency claim whose encounter is outpatient",
    event: "claim-request",
    build: (e) => {
      const b = emergency(e, "BAD-EMR-CLASS");
      (ofType(b, "Encounter").class as Json).code = "AMB";
      return b;
    },
    expect: { as: "business", code: "BV-00755", expression: "Bundle.entry[7].resource.class" },
  },
  {
    rule: "triageDate",
    name: "an emergency encounter without its triage date",
    event: "claim-request",
    build: (e) => {
      const b = emergency(e, "BAD-TRIAGE-DATE");
      const enc = ofType(b, "Encounter");
      (enc.extension as Json[]).splice(extensionNamed(enc, "triageDate"), 1);
      return b;
    },
    expect: { as: "business", code: "BV-00733", expression: "Bundle.entry[7].resource.extension" },
  },
  {
    rule: "serviceEventType",
    name: "an oral claim's encounter without the service event type",
    event: "claim-request",
    build: (e) => {
      const b = claimMessage(vip("absolute", "PRAC-10002"), e, { type: "oral", use: "claim", serviced: "date", identifier: "BAD-SERVICE-EVENT", items: [{ system: "oralHealthOp", code: "ORL-2001", price: 120 }] });
      delete ofType(b, "Encounter").extension;
      return b;
    },
    expect: { as: "business", code: "BV-00736", expression: "Bundle.entry[7].resource.extension" },
  },
  {
    rule: "maternity",
    name: "a professional item that does not say whether it is maternity care",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-MATERNITY");
      delete ((claimOf(b).item as Json[])[0]!).extension;
      return b;
    },
    expect: { as: "business", code: "BV-90037", expression: "Bundle.entry[1].resource.item[0].extension" },
  },
  {
    rule: "conditionOnset",
    name: "an institutional claim's diagnosis without its condition onset",
    event: "claim-request",
    build: (e) => {
      const b = claimMessage(vip("absolute", "PRAC-10005"), e, { type: "institutional", use: "claim", serviced: "date", identifier: "BAD-ONSET", items: [{ system: "services", code: "SVC-0201", price: 400 }] });
      delete ((claimOf(b).diagnosis as Json[])[0]!).extension;
      return b;
    },
    expect: { as: "business", code: "BV-90038", expression: "Bundle.entry[1].resource.diagnosis[0].extension" },
  },
  {
    rule: "treatmentPlan",
    name: "a claim without the treatment plan",
    event: "claim-request",
    build: (e) => withoutInfo(professional(e, "BAD-NO-PLAN"), "treatment-plan"),
    expect: { as: "business", code: "BV-00803", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "investigationResult",
    name: "a claim without the investigation result",
    event: "claim-request",
    build: (e) => withoutInfo(professional(e, "BAD-NO-INVESTIGATION"), "investigation-result"),
    expect: { as: "business", code: "BV-00752", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "investigationOther",
    name: "an investigation result \"other\" without its text",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-INVESTIGATION-OTHER");
      ((((claimOf(b).supportingInfo as Json[])[infoIndex(b, "investigation-result")]!.code as Json).coding as Json[])[0]!).code = "other";
      return b;
    },
    expect: { as: "business", code: "BV-90040", expression: "Bundle.entry[1].resource.supportingInfo[1].code.text" },
  },
  {
    rule: "vitalSign",
    name: "a weight in pounds",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-VITAL-UNIT");
      (claimOf(b).supportingInfo as Json[]).push({ sequence: 7, category: { coding: [{ system: "http://nphies.sa/terminology/CodeSystem/claim-information-category", code: "vital-sign-weight" }] }, valueQuantity: { value: 150, system: "http://unitsofmeasure.org", code: "[lb_av]" } });
      return b;
    },
    expect: { as: "business", code: "BV-90041", expression: "Bundle.entry[1].resource.supportingInfo[6].valueQuantity" },
  },
  {
    rule: "morphology",
    name: "a cancer diagnosis without its morphology",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-MORPHOLOGY");
      ((((claimOf(b).diagnosis as Json[])[0]!.diagnosisCodeableConcept as Json).coding as Json[])[0]!).code = "C50.9";
      return b;
    },
    expect: { as: "business", code: "BV-90042", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "accidentWork",
    name: "a workplace accident without a work-related diagnosis",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-ACCIDENT");
      claimOf(b).accident = { date: e.today, type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ActCode", code: "WPA" }] } };
      return b;
    },
    expect: { as: "business", code: "BV-90046", expression: "Bundle.entry[1].resource.accident.type" },
  },
  {
    rule: "hba1c",
    name: "an HbA1c item without the lab-test value",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-HBA1C");
      (((claimOf(b).item as Json[])[0]!.productOrService as Json).coding as Json[]).splice(0, 1, { system: "http://nphies.sa/terminology/CodeSystem/services", code: "73050-18-50" });
      return b;
    },
    expect: { as: "business", code: "BV-90048", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "required",
    name: "a Patient without marital status (MDS note 5.2)",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-MARITAL");
      delete entry(b, 2).maritalStatus;
      return b;
    },
    expect: { as: "business", code: "BV-90004", expression: "Bundle.entry[2].resource.maritalStatus" },
  },
  {
    rule: "required",
    name: "a Coverage without its class (MDS note 5.2)",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-CLASS");
      delete entry(b, 3).class;
      return b;
    },
    expect: { as: "business", code: "BV-90004", expression: "Bundle.entry[3].resource.class" },
  },
  {
    rule: "discharge",
    name: "an inpatient claim whose stay ended without a discharge disposition",
    event: "claim-request",
    build: (e) => {
      const b = claimMessage(vip("absolute", "PRAC-10005"), e, { type: "institutional", subtype: "ip", use: "claim", serviced: "date", identifier: "BAD-DISCHARGE", onAdmission: { code: "y" }, items: [{ system: "services", code: "SVC-0301", price: 900 }] });
      delete (ofType(b, "Encounter").hospitalization as Json).dischargeDisposition;
      return b;
    },
    expect: { as: "business", code: "BV-90035", expression: "Bundle.entry[7].resource.hospitalization.dischargeDisposition" },
  },
];

export const INVALID_CASES: InvalidCase[] = [
  ...MALFORMED,
  ...MDS,
  {
    rule: "unreadable",
    name: "not a Bundle at all",
    event: "claim-request",
    build: () => ({ resourceType: "Claim", id: "x" }),
    expect: { as: "operation-outcome", code: "BV-00130", expression: "Bundle" },
  },
  {
    rule: "focusOne",
    name: "MessageHeader.focus names two entries",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-FOCUS");
      const h = entry(b, 0);
      h.focus = [...(h.focus as Json[]), { reference: (b.entry as Json[])[2]!.fullUrl }];
      return b;
    },
    expect: { as: "operation-outcome", code: "BV-00221", expression: "Bundle.entry[0].resource.focus" },
  },
  {
    rule: "headerId",
    name: "MessageHeader.id is not a GUID",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-HEADER-ID");
      entry(b, 0).id = "header-1";
      (b.entry as Json[])[0]!.fullUrl = "urn:uuid:header-1";
      return b;
    },
    expect: { as: "business", code: "BV-00168", expression: "Bundle.entry[0].resource.id" },
  },
  {
    rule: "profileMissing",
    name: "the Claim declares no profile",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-PROFILE");
      delete claimOf(b).meta;
      return b;
    },
    expect: { as: "business", code: "BV-90002", expression: "Bundle.entry[1].resource.meta.profile" },
  },
  {
    rule: "referenceUnresolved",
    name: "Claim.patient names an entry the Bundle does not have",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-REF");
      claimOf(b).patient = { reference: `${m.CLINIC_BASE}/Patient/not-in-this-message` };
      return b;
    },
    expect: { as: "business", code: "BV-90005", expression: "Bundle.entry[1].resource.patient" },
  },
  {
    rule: "practitionerUnknown",
    name: "the care team's practitioner licence is unknown",
    event: "claim-request",
    build: (e) =>
      claimMessage(vip("absolute", "PRAC-99999"), e, { type: "professional", use: "claim", serviced: "date", identifier: "BAD-LICENCE", items: [{ system: "services", code: "SVC-0101", price: 150 }] }),
    expect: { as: "business", code: "BV-90022", expression: "Bundle.entry[6].resource.identifier[0].value" },
  },
  {
    rule: "itemCodeSystem",
    name: "an oral claim billing a laboratory code",
    event: "claim-request",
    build: (e) =>
      claimMessage(vip("absolute", "PRAC-10002"), e, { type: "oral", use: "claim", serviced: "date", identifier: "BAD-SYSTEM", items: [{ system: "laboratory", code: "LAB-4001", price: 60 }] }),
    expect: { as: "business", code: "IC-90005", expression: "Bundle.entry[1].resource.item[0].productOrService" },
  },
  {
    rule: "required",
    name: "the Claim has no subType",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-REQUIRED");
      delete claimOf(b).subType;
      return b;
    },
    expect: { as: "business", code: "BV-90004", expression: "Bundle.entry[1].resource.subType" },
  },
  {
    rule: "structure",
    name: "a quantity written as a string (invalid R4)",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-R4");
      ((claimOf(b).item as Json[])[0]!.quantity as Json).value = "1";
      return b;
    },
    expect: { as: "business", code: "DT-90001", expression: "Bundle.entry[1].resource.item[0].quantity.value" },
  },
  {
    rule: "supportingInfoRequired",
    name: "a pharmacy claim without days supply",
    event: "claim-request",
    build: (e) =>
      claimMessage(m.parties({ doc: { kind: "national-id", value: "1087654321" }, memberId: "NKL-55400", payer: m.PAYERS.nakheel, form: "absolute" }), e, {
        type: "pharmacy",
        use: "claim",
        serviced: "date",
        identifier: "BAD-DAYS",
        items: [{ system: "medicationCodes", code: "06280000000101", price: 8 }],
      }),
    expect: { as: "business", code: "BV-90008", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "claimUse",
    name: "a priorauth-request carrying a claim",
    event: "priorauth-request",
    build: (e) => {
      const b = professional(e, "BAD-USE");
      (entry(b, 0).eventCoding as Json).code = "priorauth-request";
      return b;
    },
    expect: { as: "business", code: "BV-90014", expression: "Bundle.entry[1].resource.use" },
  },
  {
    rule: "iqama",
    name: "an Iqama number that does not start with 2",
    event: "eligibility-request",
    build: (e) => {
      const b = eligibilityMessage(vip(), e, { date: e.today });
      const patient = (b.entry as Json[]).map((x) => x.resource as Json).find((r) => r.resourceType === "Patient")!;
      ((patient.identifier as Json[])[0]!).value = "3456789011";
      return b;
    },
    expect: { as: "business", code: "BV-00798", expression: "Bundle.entry[2].resource.identifier[0].value" },
  },
  {
    rule: "taskFocusIdentifier",
    name: "a status check naming the claim by the platform's id",
    event: "status-check",
    build: (e) => {
      const provider = m.party(m.providerOrganization(), "absolute");
      const task = m.claimTask("status", "X", provider, e);
      task.resource.focus = { reference: "Claim/123" };
      return m.message("status-check", task, [provider], { payer: m.PAYERS.rimal }, e);
    },
    expect: { as: "business", code: "BV-90021", expression: "Bundle.entry[1].resource.focus" },
  },
  {
    rule: "estimatedStay",
    name: "an inpatient prior authorization without the estimated length of stay",
    event: "priorauth-request",
    build: (e) => inpatientPreauthMessage(e, { identifier: "BAD-INPATIENT-STAY", estimatedStay: null }),
    expect: { as: "business", code: "BV-00802", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "estimatedStayValue",
    name: "an inpatient prior authorization estimating the stay in hours",
    event: "priorauth-request",
    build: (e) => inpatientPreauthMessage(e, { identifier: "BAD-INPATIENT-HOURS", estimatedStay: { value: 96, code: "h" } }),
    expect: { as: "business", code: "BV-90026", expression: "Bundle.entry[1].resource.supportingInfo[1].valueQuantity" },
  },
  {
    rule: "onAdmission",
    name: "an inpatient prior authorization whose diagnosis does not say whether it was present on admission",
    event: "priorauth-request",
    build: (e) => inpatientPreauthMessage(e, { identifier: "BAD-INPATIENT-POA", onAdmission: null }),
    expect: { as: "business", code: "BV-00027", expression: "Bundle.entry[1].resource.diagnosis[0].onAdmission" },
  },
  {
    rule: "onAdmissionCode",
    name: "an inpatient prior authorization answering on admission in HL7's example code system",
    event: "priorauth-request",
    build: (e) => inpatientPreauthMessage(e, { identifier: "BAD-INPATIENT-POA-SYSTEM", onAdmission: { code: "y", system: "http://terminology.hl7.org/CodeSystem/ex-diagnosis-on-admission" } }),
    expect: { as: "business", code: "IC-90010", expression: "Bundle.entry[1].resource.diagnosis[0].onAdmission" },
  },
  {
    rule: "newbornAge",
    name: "a newborn's eligibility 31 days after her birth",
    event: "eligibility-request",
    build: (e) => asNewborn(eligibilityMessage(newbornParties(e, { bornDaysBefore: 31 }), e, { date: e.today })),
    expect: { as: "business", code: "BV-90023", expression: "Bundle.entry[2].resource.birthDate" },
  },
  {
    rule: "newbornBirthWeight",
    name: "a newborn's claim of the birth encounter (served on the birth date) without the birth weight",
    event: "claim-request",
    build: (e) => asNewborn(newbornClaim(e, "BAD-NEWBORN-WEIGHT", 0), null),
    expect: { as: "business", code: "BV-90024", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "birthWeightUnit",
    name: "a newborn's claim with the birth weight in grams",
    event: "claim-request",
    build: (e) => asNewborn(newbornClaim(e, "BAD-NEWBORN-GRAMS"), { value: 3100, code: "g" }),
    expect: { as: "business", code: "BV-00509", expression: "Bundle.entry[1].resource.supportingInfo[6].valueQuantity" },
  },
  {
    rule: "coverageBeneficiary",
    name: "a claim for the baby under her mother's coverage without extension-newborn",
    event: "claim-request",
    build: (e) => newbornClaim(e, "BAD-NOT-NEWBORN"),
    expect: { as: "business", code: "BV-90025", expression: "Bundle.entry[1].resource.insurance[0].coverage" },
  },
  {
    rule: "coverageBeneficiary",
    name: "an adult's eligibility naming another adult's coverage",
    event: "eligibility-request",
    build: (e) => {
      const ps = vip();
      const other = m.parties({ doc: { kind: "national-id", value: "1066612340" }, memberId: "RML-55600", payer: m.PAYERS.rimal, form: "absolute" });
      return eligibilityMessage({ ...ps, coverage: m.party(m.coverage("RML-55600", other.patient, ps.insurer), "absolute"), related: [other.patient] }, e, { date: e.today });
    },
    expect: { as: "business", code: "BV-90025", expression: "Bundle.entry[1].resource.insurance[0].coverage" },
  },
  {
    rule: "eventUnknown",
    name: "an event the exchange does not have",
    event: "claim-request",
    build: (e) => {
      const b = professional(e, "BAD-EVENT");
      (entry(b, 0).eventCoding as Json).code = "claim-submit";
      return b;
    },
    expect: { as: "operation-outcome", code: "IC-90001", expression: "Bundle.entry[0].resource.eventCoding" },
  },
];
