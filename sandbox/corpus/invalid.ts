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

const newbornClaim = (e: Env, identifier: string) =>
  claimMessage(newbornParties(e, { practitionerLicense: "PRAC-10001" }), e, { type: "professional", use: "claim", serviced: "date", identifier, items: [{ system: "services", code: "SVC-0101", price: 150 }] });

export const INVALID_CASES: InvalidCase[] = [
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
    name: "a newborn's claim without the birth weight",
    event: "claim-request",
    build: (e) => asNewborn(newbornClaim(e, "BAD-NEWBORN-WEIGHT"), null),
    expect: { as: "business", code: "BV-90024", expression: "Bundle.entry[1].resource.supportingInfo" },
  },
  {
    rule: "birthWeightUnit",
    name: "a newborn's claim with the birth weight in grams",
    event: "claim-request",
    build: (e) => asNewborn(newbornClaim(e, "BAD-NEWBORN-GRAMS"), { value: 3100, code: "g" }),
    expect: { as: "business", code: "BV-00509", expression: "Bundle.entry[1].resource.supportingInfo[1].valueQuantity" },
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
