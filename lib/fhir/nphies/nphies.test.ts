import { describe, expect, it } from "vitest";
import { CLAIM_TYPES, REQUIRED_SUPPORTING_INFO, RULES, requiredSupportingInfo, requiresOnAdmission, REJECTION_REASONS, SCRUBBER_REASONS, appealEvidenceOf, appealRelated, checkMessage, evidenceInfo, justificationInfo, priorClaimsOf, claimProfile, profileNameOf, resolveReference, indexMessage, rejectionFamilyOf, SYSTEMS, type CheckContext } from ".";
import { checkStructure } from "../read/structure";
import {
  EXAMPLE_BASE,
  exampleClaimMessage as baseClaimMessage,
  exampleCommunicationMessage as baseCommunicationMessage,
  exampleEligibilityMessage as baseEligibilityMessage,
  exampleNewbornClaimMessage as baseNewbornClaimMessage,
  exampleNewbornEligibilityMessage as baseNewbornEligibilityMessage,
  examplePaymentNoticeMessage,
  exampleTaskMessage,
} from "./testing/example-messages";
import { withMinimumDataSet } from "./testing/mds-fixtures";

// The hand-written examples completed with the Minimum Data Set (decision 104): each passes every rule.
const exampleClaimMessage = (...args: Parameters<typeof baseClaimMessage>) => withMinimumDataSet(baseClaimMessage(...args));
const exampleNewbornClaimMessage = (...args: Parameters<typeof baseNewbornClaimMessage>) => withMinimumDataSet(baseNewbornClaimMessage(...args));
const exampleEligibilityMessage = () => withMinimumDataSet(baseEligibilityMessage());
const exampleNewbornEligibilityMessage = () => withMinimumDataSet(baseNewbornEligibilityMessage());
const exampleCommunicationMessage = () => withMinimumDataSet(baseCommunicationMessage());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures are mutated freely
const today = new Date("2026-11-25T00:00:00Z");
const ctx: CheckContext = { today, isKnownProvider: (l) => l === "PR-FHIR", isKnownPayer: (l) => l === "INS-FHIR" };
const entryOf = (bundle: Json, type: string): Json => bundle.entry.find((e: Json) => e.resource.resourceType === type).resource;
const indexOf = (bundle: Json, type: string): number => bundle.entry.findIndex((e: Json) => e.resource.resourceType === type);

function valid(): [string, Json][] {
  return [
    ...CLAIM_TYPES.flatMap((type) => [
      [`${type} claim`, exampleClaimMessage(type, "claim")] as [string, Json],
      [`${type} prior authorization`, exampleClaimMessage(type, "preauthorization")] as [string, Json],
    ]),
    ["institutional inpatient claim", exampleClaimMessage("institutional", "claim", "ip")],
    ["professional emergency claim", exampleClaimMessage("professional", "claim", "emr")],
    ["eligibility", exampleEligibilityMessage()],
    ["newborn eligibility under the mother's coverage", exampleNewbornEligibilityMessage()],
    ["newborn professional claim", exampleNewbornClaimMessage("professional", "claim")],
    ["newborn institutional prior authorization", exampleNewbornClaimMessage("institutional", "preauthorization")],
    ["cancel", exampleTaskMessage("cancel")],
    ["status check", exampleTaskMessage("status")],
    ["poll", exampleTaskMessage("poll")],
    ["communication", exampleCommunicationMessage()],
    ["payment notice", examplePaymentNoticeMessage()],
  ];
}

describe("the exchange's rules on valid messages", () => {
  it.each(valid())("%s passes every rule and is valid R4", (_name, message) => {
    const report = checkMessage(message, ctx);
    expect(report.findings).toEqual([]);
    expect(report.readable).toBe(true);
    for (const entry of message.entry) expect(() => checkStructure(entry.resource)).not.toThrow();
  });
});

function refused(message: Json): { code: string; expression: string }[] {
  return checkMessage(message, ctx).errors.map(({ code, expression }) => ({ code, expression }));
}

describe("each rule refuses what breaks it, naming the element", () => {
  it("Bundle type, Bundle id, MessageHeader first and its id", () => {
    const m: Json = exampleClaimMessage("professional", "claim");
    m.type = "collection";
    m.id = "not-a-guid";
    m.entry[0].resource.id = "x1";
    expect(refused(m)).toEqual(
      expect.arrayContaining([
        { code: "BV-00130", expression: "Bundle.type" },
        { code: "BV-00341", expression: "Bundle.id" },
        { code: "BV-00168", expression: "Bundle.entry[0].resource.id" },
      ]),
    );
    const swapped: Json = exampleClaimMessage("professional", "claim");
    swapped.entry.reverse();
    expect(refused(swapped)).toContainEqual({ code: "BV-00126", expression: "Bundle.entry[0]" });
    expect(checkMessage(swapped, ctx).readable).toBe(false);
  });

  it("focus exactly one entry of the event's resource", () => {
    const two: Json = exampleClaimMessage("professional", "claim");
    two.entry[0].resource.focus.push({ reference: `${EXAMPLE_BASE}/Patient/pat-1` });
    expect(refused(two)).toContainEqual({ code: "BV-00221", expression: "Bundle.entry[0].resource.focus" });
    const wrong: Json = exampleClaimMessage("professional", "claim");
    wrong.entry[0].resource.focus = [{ reference: `${EXAMPLE_BASE}/Patient/pat-1` }];
    expect(refused(wrong)).toContainEqual({ code: "BV-90010", expression: "Bundle.entry[0].resource.focus[0]" });
    const use = exampleClaimMessage("professional", "claim");
    entryOf(use, "Claim").use = "preauthorization";
    expect(refused(use).map((f) => f.code)).toContain("BV-90014");
  });

  it("references that do not resolve in the Bundle; identifier-only ones pass", () => {
    const m: Json = exampleClaimMessage("oral", "claim");
    const claim = entryOf(m, "Claim");
    claim.insurance[0].coverage = { reference: `${EXAMPLE_BASE}/Coverage/missing` };
    const at = `Bundle.entry[${indexOf(m, "Claim")}].resource.insurance[0].coverage`;
    expect(refused(m)).toContainEqual({ code: "BV-90005", expression: at });
    claim.insurance[0].coverage = { type: "Coverage", identifier: { system: "http://insurer.example.com/memberid", value: "M-0001" } };
    expect(refused(m)).toEqual([]);
  });

  it("BV-90005: an answer to an information request based on the request's id alone is refused; by its identifier it passes", () => {
    const m: Json = exampleCommunicationMessage();
    const communication = entryOf(m, "Communication");
    const at = `Bundle.entry[${indexOf(m, "Communication")}].resource.basedOn[0]`;
    // The payer's CommunicationRequest is never inside the clinic's answer: its id resolves to nothing.
    communication.basedOn = [{ reference: "CommunicationRequest/cr-1" }];
    expect(refused(m)).toContainEqual({ code: "BV-90005", expression: at });
    communication.basedOn = [{ type: "CommunicationRequest", identifier: { system: "http://insurer.example.com/communication-request", value: "CR-1" } }];
    expect(refused(m)).toEqual([]);
  });

  it("every resource carries its profile, and a Claim's matches its type and use", () => {
    const m: Json = exampleClaimMessage("pharmacy", "claim");
    delete entryOf(m, "Coverage").meta;
    entryOf(m, "Claim").meta.profile = [claimProfile("oral", "claim")];
    expect(refused(m)).toEqual(
      expect.arrayContaining([
        { code: "BV-90002", expression: `Bundle.entry[${indexOf(m, "Coverage")}].resource.meta.profile` },
        { code: "BV-90007", expression: `Bundle.entry[${indexOf(m, "Claim")}].resource.meta.profile` },
      ]),
    );
  });

  it("codes from the wrong system for the claim type, and CPT is never accepted", () => {
    const m: Json = exampleClaimMessage("pharmacy", "claim");
    entryOf(m, "Claim").item[0].productOrService = { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] };
    expect(refused(m)).toContainEqual({ code: "IC-90005", expression: `Bundle.entry[${indexOf(m, "Claim")}].resource.item[0].productOrService` });
    const oral = exampleClaimMessage("oral", "claim");
    entryOf(oral, "Claim").item[0].productOrService = { coding: [{ system: SYSTEMS.medicalDevices, code: "X" }] };
    expect(refused(oral).map((f) => f.code)).toContain("IC-90005");
  });

  it("a required element of the profile missing", () => {
    const m: Json = exampleClaimMessage("institutional", "claim", "ip");
    const claim = entryOf(m, "Claim");
    delete claim.item[0].net;
    delete claim.total;
    delete entryOf(m, "Patient").birthDate;
    const c = indexOf(m, "Claim");
    expect(refused(m)).toEqual(
      expect.arrayContaining([
        { code: "BV-90004", expression: `Bundle.entry[${c}].resource.item[0].net` },
        { code: "BV-90004", expression: `Bundle.entry[${c}].resource.total` },
        { code: "BV-90004", expression: `Bundle.entry[${indexOf(m, "Patient")}].resource.birthDate` },
      ]),
    );
  });

  it("care-setting rules: subtype, encounter, care team, supporting information, tooth", () => {
    const m: Json = exampleClaimMessage("institutional", "claim", "ip");
    const claim = entryOf(m, "Claim");
    claim.extension = claim.extension.filter((e: Json) => !String(e.url).endsWith("extension-encounter"));
    delete claim.careTeam;
    const c = `Bundle.entry[${indexOf(m, "Claim")}].resource`;
    expect(refused(m)).toEqual(expect.arrayContaining([{ code: "BV-90015", expression: `${c}.extension` }, { code: "BV-90009", expression: `${c}.careTeam` }]));
    const p = exampleClaimMessage("pharmacy", "claim");
    entryOf(p, "Claim").supportingInfo = entryOf(p, "Claim").supportingInfo.filter((i: Json) => i.category.coding[0].code !== "days-supply");
    entryOf(p, "Claim").subType.coding[0].code = "ip";
    expect(refused(p).map((f) => f.code)).toEqual(expect.arrayContaining(["BV-90008", "IC-90004"]));
    const o = exampleClaimMessage("oral", "claim");
    delete entryOf(o, "Claim").item[0].bodySite;
    expect(checkMessage(o, ctx).findings.map((f) => [f.code, f.severity])).toEqual([["BV-90018", "warning"]]);
  });

  it("money: item net, total, currency", () => {
    const m: Json = exampleClaimMessage("professional", "claim");
    const claim = entryOf(m, "Claim");
    claim.item[0].net.value = 300;
    claim.total.currency = "USD";
    const c = `Bundle.entry[${indexOf(m, "Claim")}].resource`;
    expect(refused(m)).toEqual(
      expect.arrayContaining([
        { code: "BV-90016", expression: `${c}.item[0].net` },
        { code: "BV-90017", expression: `${c}.total` },
        { code: "BV-90019", expression: `${c}.total.currency` },
      ]),
    );
  });

  it("patients: Iqama and national ID shapes, active, birth date", () => {
    const m: Json = exampleClaimMessage("vision", "claim");
    const patient = entryOf(m, "Patient");
    patient.identifier[0].value = "2000000001"; // a national ID must start with 1
    patient.active = false;
    patient.birthDate = "2030-01-01";
    const at = `Bundle.entry[${indexOf(m, "Patient")}].resource`;
    expect(refused(m)).toEqual(
      expect.arrayContaining([
        { code: "BV-90006", expression: `${at}.identifier[0].value` },
        { code: "BV-00339", expression: `${at}.active` },
        { code: "BV-00848", expression: `${at}.birthDate` },
      ]),
    );
    patient.identifier[0] = { type: { coding: [{ system: SYSTEMS.identifierType, code: "PRC" }] }, system: "http://nphies.sa/identifier/iqama", value: "1000000001" };
    expect(refused(m)).toContainEqual({ code: "BV-00798", expression: `${at}.identifier[0].value` });
  });

  it("invalid R4: a number written as a string", () => {
    const m: Json = exampleClaimMessage("professional", "claim");
    entryOf(m, "Claim").item[0].quantity.value = "2";
    expect(refused(m).map((f) => f.code)).toContain("DT-90001");
  });

  it("unknown licences, destination, event and Task rules", () => {
    const m: Json = exampleClaimMessage("professional", "claim");
    m.entry[0].resource.sender.identifier.value = "PR-UNKNOWN";
    m.entry[0].resource.destination[0].receiver.identifier.value = "INS-UNKNOWN";
    expect(refused(m).map((f) => f.code)).toEqual(expect.arrayContaining(["BV-90012", "BV-90013"]));
    const poll: Json = exampleTaskMessage("poll");
    poll.entry[0].resource.destination[0].receiver.identifier = { system: "http://nphies.sa/license/payer-license", value: "INS-FHIR" };
    expect(refused(poll).map((f) => f.code)).toContain("BV-90011");
    const status = exampleTaskMessage("status");
    const task = entryOf(status, "Task");
    task.focus = { reference: "Claim/123" };
    task.code.coding[0].code = "poll";
    expect(refused(status).map((f) => f.code)).toEqual(expect.arrayContaining(["BV-90021", "IC-90009"]));
    const event: Json = exampleEligibilityMessage();
    event.entry[0].resource.eventCoding.code = "eligibility-response";
    expect(refused(event)).toContainEqual({ code: "IC-90001", expression: "Bundle.entry[0].resource.eventCoding" });
  });
});

describe("newborns and the coverage a request names", () => {
  const patientOf = (m: Json, id: string) => m.entry.find((e: Json) => e.resource.resourceType === "Patient" && e.resource.id === id).resource;
  const patientAt = (m: Json, id: string) => `Bundle.entry[${m.entry.findIndex((e: Json) => e.resource.resourceType === "Patient" && e.resource.id === id)}].resource`;
  const withoutNewborn = (resource: Json) => {
    resource.extension = (resource.extension ?? []).filter((e: Json) => !String(e.url).endsWith("extension-newborn"));
    if (resource.extension.length === 0) delete resource.extension; // R4 has no empty arrays
  };

  it("BV-90025: a coverage of another person is refused without the newborn extension, on claims and eligibility", () => {
    const claim: Json = exampleNewbornClaimMessage("professional", "claim");
    withoutNewborn(entryOf(claim, "Claim"));
    expect(refused(claim)).toEqual([{ code: "BV-90025", expression: `Bundle.entry[${indexOf(claim, "Claim")}].resource.insurance[0].coverage` }]);
    const eligibility: Json = exampleNewbornEligibilityMessage();
    withoutNewborn(entryOf(eligibility, "CoverageEligibilityRequest"));
    expect(refused(eligibility)).toEqual([{ code: "BV-90025", expression: `Bundle.entry[${indexOf(eligibility, "CoverageEligibilityRequest")}].resource.insurance[0].coverage` }]);
    // The newborn extension set to false says the same as no extension.
    entryOf(eligibility, "CoverageEligibilityRequest").extension = [{ url: "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-newborn", valueBoolean: false }];
    expect(refused(eligibility).map((f) => f.code)).toEqual(["BV-90025"]);
  });

  it("BV-90025 compares people by document when the beneficiary is named by identifier only", () => {
    const m: Json = exampleClaimMessage("professional", "claim");
    const coverage = entryOf(m, "Coverage");
    coverage.beneficiary = { type: "Patient", identifier: { system: "http://nphies.sa/identifier/nationalid", value: "1000000001" } };
    expect(refused(m)).toEqual([]);
    coverage.beneficiary = { type: "Patient", identifier: { system: "http://nphies.sa/identifier/nationalid", value: "1000000009" } };
    expect(refused(m).map((f) => f.code)).toEqual(["BV-90025"]);
  });

  it("BV-90023: a newborn older than 30 days at the service date is refused, naming the birth date", () => {
    const m: Json = exampleNewbornClaimMessage("professional", "claim");
    const newborn = patientOf(m, "pat-1");
    newborn.birthDate = "2026-10-21"; // 30 days before the item's 2026-11-20
    expect(refused(m)).toEqual([]);
    newborn.birthDate = "2026-10-20"; // 31 days
    expect(refused(m)).toEqual([{ code: "BV-90023", expression: `${patientAt(m, "pat-1")}.birthDate` }]);
    expect(checkMessage(m, ctx).errors[0]!.message).toContain("item[0].servicedDate");
    // Born after the service date: not a newborn of that service either.
    newborn.birthDate = "2026-11-21";
    expect(refused(m).map((f) => f.code)).toEqual(["BV-90045", "BV-90023"]);
    // A partial birth date cannot place a newborn.
    newborn.birthDate = "2026-11";
    expect(refused(m).map((f) => f.code)).toEqual(["BV-90023"]);
  });

  it("BV-90023 counts from each item's serviced date (period start), else billablePeriod, else created", () => {
    const m: Json = exampleNewbornClaimMessage("professional", "claim");
    const claim = entryOf(m, "Claim");
    claim.item.push({ ...claim.item[0], sequence: 2, servicedDate: undefined, servicedPeriod: { start: "2026-12-15T08:00:00+03:00", end: "2026-12-15T09:00:00+03:00" } });
    delete claim.item[1].servicedDate;
    claim.total.value = 690;
    expect(checkMessage(m, ctx).errors.map((f) => [f.code, f.message.includes("item[1].servicedPeriod.start")])).toEqual([["BV-90023", true]]);
    claim.item = claim.item.slice(0, 1);
    claim.total.value = 345;
    delete claim.item[0].servicedDate;
    claim.billablePeriod = { start: "2026-11-05", end: "2026-11-06" }; // before the birth
    // (item.serviced[x] is required by the profile: only the age rule is looked at here)
    expect(checkMessage(m, ctx).errors.filter((f) => f.code === "BV-90023").map((f) => f.message.includes("billablePeriod.start"))).toEqual([true]);
    delete claim.billablePeriod;
    claim.created = "2026-12-30T09:00:00+03:00";
    expect(checkMessage(m, ctx).errors.filter((f) => f.code === "BV-90023").map((f) => f.message.includes(".created"))).toEqual([true]);
    const eligibility: Json = exampleNewbornEligibilityMessage();
    entryOf(eligibility, "CoverageEligibilityRequest").servicedPeriod = { start: "2026-12-11", end: "2026-12-12" };
    expect(refused(eligibility)).toEqual([{ code: "BV-90023", expression: `${patientAt(eligibility, "pat-1")}.birthDate` }]);
  });

  /** Makes the message's Patient born on its Claim's first service day (the birth encounter). */
  const birthOnFirstServiceDay = (m: Json) => {
    const claim = entryOf(m, "Claim");
    const day = (claim.item as Json[]).map((i) => i.servicedDate ?? i.servicedPeriod?.start).filter(Boolean).sort()[0].slice(0, 10);
    for (const e of m.entry as Json[]) if (e.resource.resourceType === "Patient" && e.resource.id === "pat-1") e.resource.birthDate = day;
  };

  it("BV-90024: a newborn's claim or prior authorization without the birth weight; eligibility needs none", () => {
    for (const use of ["claim", "preauthorization"] as const) {
      const m: Json = exampleNewbornClaimMessage("institutional", use);
      const claim = entryOf(m, "Claim");
      claim.supportingInfo = claim.supportingInfo.filter((i: Json) => i.category.coding[0].code !== "birth-weight");
      // The birth encounter: the baby born on the first service day (guide 6.5, decision 120).
      birthOnFirstServiceDay(m);
      expect(refused(m)).toEqual([{ code: "BV-90024", expression: `Bundle.entry[${indexOf(m, "Claim")}].resource.supportingInfo` }]);
    }
    expect(refused(exampleNewbornEligibilityMessage())).toEqual([]);
  });

  it("BV-90024 only on the birth encounter (guide 6.5): a later visit within the 30 days needs no birth weight", () => {
    const m: Json = exampleNewbornClaimMessage("professional", "claim");
    const claim = entryOf(m, "Claim");
    claim.supportingInfo = claim.supportingInfo.filter((i: Json) => i.category.coding[0].code !== "birth-weight");
    // The example's baby was born ten days before the visit: not the birth encounter.
    expect(refused(m)).toEqual([]);
    birthOnFirstServiceDay(m);
    expect(refused(m).map((f) => f.code)).toEqual(["BV-90024"]);
  });

  it("BV-00509: the birth weight in grams, without UCUM or without a value; a non-newborn claim is checked too", () => {
    const m: Json = exampleNewbornClaimMessage("professional", "claim");
    const claim = entryOf(m, "Claim");
    const i = claim.supportingInfo.findIndex((x: Json) => x.category.coding[0].code === "birth-weight");
    const at = `Bundle.entry[${indexOf(m, "Claim")}].resource.supportingInfo[${i}].valueQuantity`;
    claim.supportingInfo[i].valueQuantity = { value: 3200, system: "http://unitsofmeasure.org", code: "g", unit: "g" };
    expect(refused(m)).toEqual([{ code: "BV-00509", expression: at }]);
    claim.supportingInfo[i].valueQuantity = { value: 3.2, unit: "kg" };
    expect(refused(m)).toEqual([{ code: "BV-00509", expression: at }]);
    claim.supportingInfo[i].valueQuantity = { system: "http://unitsofmeasure.org", code: "kg" };
    expect(refused(m)).toEqual([{ code: "BV-00509", expression: at }]);
    delete claim.supportingInfo[i].valueQuantity;
    claim.supportingInfo[i].valueString = "3.2 kg";
    expect(refused(m)).toEqual([{ code: "BV-00509", expression: at }]);
    const plain: Json = exampleClaimMessage("professional", "claim");
    entryOf(plain, "Claim").supportingInfo.push({ sequence: 2, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: "birth-weight" }] }, valueQuantity: { value: 3200, system: "http://unitsofmeasure.org", code: "g" } });
    expect(refused(plain).map((f) => f.code)).toEqual(["BV-00509"]);
  });
});

describe("inpatient stays: the estimated length of stay and diagnoses present on admission", () => {
  const claimAt = (m: Json) => `Bundle.entry[${indexOf(m, "Claim")}].resource`;
  const withoutStay = (m: Json) => {
    const claim = entryOf(m, "Claim");
    claim.supportingInfo = claim.supportingInfo.filter((i: Json) => i.category.coding[0].code !== "estimated-Length-of-Stay");
  };
  const stayOf = (m: Json) => entryOf(m, "Claim").supportingInfo.find((i: Json) => i.category.coding[0].code === "estimated-Length-of-Stay");

  it("the rules are the guide's codes", () => {
    expect([RULES.estimatedStay.code, RULES.estimatedStay.igCode, RULES.onAdmission.code, RULES.onAdmission.igCode]).toEqual(["BV-00802", true, "BV-00027", true]);
  });

  it("requiredSupportingInfo: the type's own, plus the estimated stay for an institutional inpatient prior authorization only", () => {
    expect(requiredSupportingInfo("institutional", "ip", "preauthorization")).toEqual(["chief-complaint", "estimated-Length-of-Stay"]);
    expect(requiredSupportingInfo("institutional", "ip", "claim")).toEqual(["chief-complaint"]);
    expect(requiredSupportingInfo("institutional", "emr", "preauthorization")).toEqual(["chief-complaint"]);
    expect(requiredSupportingInfo("pharmacy", "op", "preauthorization")).toEqual(["days-supply"]);
    expect(requiredSupportingInfo("institutional")).toEqual(REQUIRED_SUPPORTING_INFO.institutional);
    // The per-type table keeps its meaning for its readers.
    expect(REQUIRED_SUPPORTING_INFO.institutional).toEqual(["chief-complaint"]);
    expect([requiresOnAdmission("institutional", "ip"), requiresOnAdmission("institutional", "emr"), requiresOnAdmission("professional", "op")]).toEqual([true, false, false]);
  });

  it("BV-00802: an institutional inpatient prior authorization without the estimated length of stay; a claim or an emergency one needs none", () => {
    const m: Json = exampleClaimMessage("institutional", "preauthorization", "ip");
    expect(refused(m)).toEqual([]);
    withoutStay(m);
    expect(refused(m)).toEqual([{ code: "BV-00802", expression: `${claimAt(m)}.supportingInfo` }]);
    const claim: Json = exampleClaimMessage("institutional", "claim", "ip");
    withoutStay(claim);
    expect(refused(claim)).toEqual([]);
    expect(refused(exampleClaimMessage("professional", "preauthorization", "emr"))).toEqual([]);
    // The guide's encounter table bills an institutional claim for a stay only (9.19): an institutional emergency is refused.
    const emergency: Json = exampleClaimMessage("institutional", "preauthorization", "emr");
    expect(refused(emergency).map((f) => f.code)).toContain("BV-00741");
  });

  it("BV-90026: the stay in hours, in part days, of no day, or without UCUM", () => {
    const m: Json = exampleClaimMessage("institutional", "preauthorization", "ip");
    const i = entryOf(m, "Claim").supportingInfo.indexOf(stayOf(m));
    const at = `${claimAt(m)}.supportingInfo[${i}].valueQuantity`;
    for (const quantity of [
      { value: 72, unit: "h", system: "http://unitsofmeasure.org", code: "h" },
      { value: 2.5, unit: "d", system: "http://unitsofmeasure.org", code: "d" },
      { value: 0, unit: "d", system: "http://unitsofmeasure.org", code: "d" },
      { value: 3, unit: "days" },
    ]) {
      stayOf(m).valueQuantity = quantity;
      expect(refused(m), JSON.stringify(quantity)).toEqual([{ code: "BV-90026", expression: at }]);
    }
    delete stayOf(m).valueQuantity;
    stayOf(m).valueString = "3 days";
    expect(refused(m)).toEqual([{ code: "BV-90026", expression: at }]);
  });

  it("BV-00027: a diagnosis of an inpatient stay that does not say whether it was present on admission, claim and prior authorization", () => {
    for (const use of ["claim", "preauthorization"] as const) {
      const m: Json = exampleClaimMessage("institutional", use, "ip");
      const claim = entryOf(m, "Claim");
      claim.diagnosis.push({ ...claim.diagnosis[0], sequence: 2, type: [{ coding: [{ system: SYSTEMS.diagnosisType, code: "secondary" }] }] });
      expect(refused(m)).toEqual([]);
      delete claim.diagnosis[1].onAdmission;
      expect(refused(m)).toEqual([{ code: "BV-00027", expression: `${claimAt(m)}.diagnosis[1].onAdmission` }]);
    }
    // Outpatient and emergency care need none.
    expect(refused(exampleClaimMessage("professional", "claim", "op"))).toEqual([]);
    expect(refused(exampleClaimMessage("professional", "claim", "emr"))).toEqual([]);
  });

  it("IC-90010: onAdmission outside diagnosis-on-admission (another system, another code)", () => {
    const m: Json = exampleClaimMessage("institutional", "claim", "ip");
    const diagnosis = entryOf(m, "Claim").diagnosis[0];
    diagnosis.onAdmission = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-diagnosis-on-admission", code: "y" }] };
    expect(refused(m)).toEqual([{ code: "IC-90010", expression: `${claimAt(m)}.diagnosis[0].onAdmission` }]);
    diagnosis.onAdmission = { coding: [{ system: SYSTEMS.diagnosisOnAdmission, code: "w" }] };
    expect(refused(m)).toEqual([{ code: "IC-90010", expression: `${claimAt(m)}.diagnosis[0].onAdmission` }]);
    for (const code of ["y", "n", "u"]) {
      diagnosis.onAdmission = { coding: [{ system: SYSTEMS.diagnosisOnAdmission, code }] };
      expect(refused(m)).toEqual([]);
    }
  });
});

describe("references in every form R4 allows", () => {
  it("resolves absolute, urn:uuid, relative against the entry's base, and #contained", () => {
    const bundle = {
      resourceType: "Bundle",
      entry: [
        { fullUrl: "http://a.example/fhir/Claim/1", resource: { resourceType: "Claim", id: "1", contained: [{ resourceType: "Practitioner", id: "p" }] } },
        { fullUrl: "urn:uuid:6f1c8a3e-0000-4000-8000-000000000001", resource: { resourceType: "Patient", id: "x" } },
        { fullUrl: "http://a.example/fhir/Coverage/9", resource: { resourceType: "Coverage", id: "9" } },
      ],
    };
    const index = indexMessage(bundle);
    const from = index.entries[0];
    expect(resolveReference(index, { reference: "http://a.example/fhir/Coverage/9" }, from).kind).toBe("entry");
    expect(resolveReference(index, { reference: "http://a.example/fhir/Coverage/9/_history/2" }, from).kind).toBe("entry");
    expect(resolveReference(index, { reference: "urn:uuid:6f1c8a3e-0000-4000-8000-000000000001" }, from).kind).toBe("entry");
    expect(resolveReference(index, { reference: "Coverage/9" }, from).kind).toBe("entry");
    expect(resolveReference(index, { reference: "#p" }, from).kind).toBe("contained");
    expect(resolveReference(index, { identifier: { system: "s", value: "v" } }, from).kind).toBe("identifier");
    expect(resolveReference(index, { reference: "Coverage/8" }, from).kind).toBe("unresolved");
    expect(resolveReference(index, { reference: "#q" }, from).kind).toBe("unresolved");
  });
});

describe("canonical helpers and families", () => {
  it("reads a profile's name whatever version it declares", () => {
    expect(profileNameOf(claimProfile("oral", "claim"))).toBe("oral-claim");
    expect(profileNameOf("http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/patient")).toBe("patient");
    expect(profileNameOf("http://hl7.org/fhir/StructureDefinition/Patient")).toBeUndefined();
  });
  it("sorts rejection reasons into the five families", () => {
    expect(rejectionFamilyOf("CV-1-1")).toBe("CV");
    expect(rejectionFamilyOf("mn-2-3")).toBe("MN");
    expect(rejectionFamilyOf("ar001")).toBeUndefined();
    expect(rejectionFamilyOf("CVX")).toBeUndefined();
  });
  it("the scrubber's own edit codes classify into a family, words in both languages, never clash with the guide's codes", () => {
    for (const [code, words] of Object.entries(SCRUBBER_REASONS)) {
      expect(rejectionFamilyOf(code), code).toBeDefined();
      expect(code).toMatch(/^[A-Z]{2}-P-\d+$/);
      expect(REJECTION_REASONS[code]).toBeUndefined();
      expect(words.en.length * words.ar.length).toBeGreaterThan(0);
      expect(words.ar).toMatch(/[\u0600-\u06FF]/);
    }
  });
});

describe("appeals (decision 081)", () => {
  it("names the prior claim with the exchange's relationship and reads back justification and files", () => {
    const related = appealRelated({ platformId: "p-1", identifier: { system: "https://clinic.example/fhir/claim-id/c1", value: "C-1" } });
    expect(related.relationship?.coding?.[0]).toEqual({ system: "http://nphies.sa/terminology/CodeSystem/related-claim-relationship", code: "prior" });
    const claim = { related: [related], supportingInfo: [justificationInfo(1, "  Lab report attached  "), evidenceInfo(2, { contentType: "application/pdf", data: "JVBERg==" })] };
    expect(priorClaimsOf(claim)).toEqual([{ id: "p-1", identifier: { system: "https://clinic.example/fhir/claim-id/c1", value: "C-1" } }]);
    expect(appealEvidenceOf(claim)).toEqual({ justification: "Lab report attached", files: 1 });
    // HL7's prior (the portal's fix-and-resubmit) is a prior claim too; other relationships are not.
    expect(priorClaimsOf({ related: [{ claim: { identifier: { value: "C-2" } }, relationship: { coding: [{ system: SYSTEMS.relatedClaimRelationship, code: "prior" }] } }] })).toEqual([{ identifier: { value: "C-2" } }]);
    expect(priorClaimsOf({ related: [{ claim: { identifier: { value: "C-3" } }, relationship: { coding: [{ system: SYSTEMS.relatedClaimRelationship, code: "associated" }] } }] })).toEqual([]);
    // Blank justification and an attachment without data argue nothing.
    expect(appealEvidenceOf({ supportingInfo: [justificationInfo(1, "   "), { sequence: 2, category: { coding: [{ code: "attachment" }] }, valueAttachment: { contentType: "application/pdf" } }] })).toEqual({ files: 0 });
  });
});
