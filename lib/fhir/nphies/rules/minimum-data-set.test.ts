import { describe, expect, it } from "vitest";
import { MDS_EXTENSIONS, MDS_SYSTEMS } from "../mds";
import { SYSTEMS } from "../terminology";
import { exampleClaimMessage } from "../testing/example-messages";
import { withMinimumDataSet } from "../testing/mds-fixtures";
import { RULES, type RuleId } from "./catalogue";
import { checkMessage, type CheckContext } from "./check";
import type { ClaimType, ClaimUse } from "../profiles";
import type { ClaimSubtype } from "../terminology";

/**
 * The Minimum Data Set's rules and the strict structure pass (decision 104): each starts from a
 * message that passes every rule (the hand-written example completed with the MDS) and breaks one
 * thing, and must be refused under its code naming the element.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures are mutated freely
const ctx: CheckContext = { today: new Date("2026-11-25T00:00:00Z") };
const message = (type: ClaimType, use: ClaimUse, subtype?: ClaimSubtype): Json => withMinimumDataSet(exampleClaimMessage(type, use, subtype));
const at = (m: Json, type: string) => `Bundle.entry[${m.entry.findIndex((e: Json) => e.resource.resourceType === type)}].resource`;
const of = (m: Json, type: string): Json => m.entry.find((e: Json) => e.resource.resourceType === type).resource;
const refused = (m: Json) => checkMessage(m, ctx).errors.map(({ code, expression }) => ({ code, expression }));
const code = (rule: RuleId) => RULES[rule].code;
const dropExtension = (resource: Json, url: string) => {
  resource.extension = resource.extension.filter((e: Json) => e.url !== url);
  if (resource.extension.length === 0) delete resource.extension;
};
const dropInfo = (m: Json, category: string) => {
  const claim = of(m, "Claim");
  claim.supportingInfo = claim.supportingInfo.filter((i: Json) => i.category.coding[0].code !== category);
};
const addInfo = (m: Json, category: string, rest: Json): number => {
  const infos = of(m, "Claim").supportingInfo as Json[];
  infos.push({ sequence: infos.length + 1, category: { coding: [{ system: SYSTEMS.claimInformationCategory, code: category }] }, ...rest });
  return infos.length - 1;
};

describe("the Minimum Data Set: valid messages pass", () => {
  it.each([
    ["institutional", "claim", "ip"],
    ["institutional", "preauthorization", "ip"],
    ["professional", "claim", "op"],
    ["professional", "preauthorization", "emr"],
    ["professional", "claim", "emr"],
    ["oral", "claim", "op"],
    ["pharmacy", "preauthorization", "op"],
    ["vision", "claim", "op"],
  ] as const)("%s %s %s", (type, use, subtype) => {
    expect(refused(message(type, use, subtype))).toEqual([]);
  });
});

describe("the Encounter (MDS note 5.2, guide 9.19)", () => {
  it("BV-90015: institutional, professional and oral requests name their Encounter; pharmacy and vision need none", () => {
    for (const type of ["professional", "oral"] as const) {
      const m = message(type, "preauthorization");
      dropExtension(of(m, "Claim"), of(m, "Claim").extension.find((e: Json) => String(e.url).endsWith("extension-encounter")).url);
      expect(refused(m)).toContainEqual({ code: code("encounterRequired"), expression: `${at(m, "Claim")}.extension` });
    }
    expect(refused(message("vision", "claim")).map((f) => f.code)).not.toContain(code("encounterRequired"));
  });

  it("BV-00741 / BV-00742 / BV-00743 / BV-00755: the encounter class fits the claim type and subtype", () => {
    const cases: [ClaimType, ClaimSubtype, string, RuleId][] = [
      ["institutional", "ip", "AMB", "encounterClassInstitutional"],
      ["professional", "op", "IMP", "encounterClassProfessional"],
      ["oral", "op", "HH", "encounterClassOral"],
      ["professional", "emr", "AMB", "encounterClassEmergency"],
    ];
    for (const [type, subtype, klass, rule] of cases) {
      const m = message(type, "claim", subtype);
      of(m, "Encounter").class.code = klass;
      expect(refused(m)).toContainEqual({ code: code(rule), expression: `${at(m, "Encounter")}.class` });
    }
    const vr = message("professional", "claim");
    of(vr, "Encounter").class.code = "VR";
    expect(refused(vr)).toEqual([]);
  });

  it("BV-00736: a professional or oral encounter says first visit or follow-up", () => {
    const m = message("oral", "claim");
    dropExtension(of(m, "Encounter"), MDS_EXTENSIONS.serviceEventType);
    expect(refused(m)).toEqual([{ code: code("serviceEventType"), expression: `${at(m, "Encounter")}.extension` }]);
  });

  it("BV-00733 / BV-00734 / BV-90030 / BV-90031: an emergency's triage date and category, arrival and service start", () => {
    const cases: [string, RuleId][] = [
      [MDS_EXTENSIONS.triageDate, "triageDate"],
      [MDS_EXTENSIONS.triageCategory, "triageCategory"],
      [MDS_EXTENSIONS.emergencyArrivalCode, "arrivalCode"],
      [MDS_EXTENSIONS.emergencyServiceStart, "emergencyServiceStart"],
    ];
    for (const [url, rule] of cases) {
      const m = message("professional", "preauthorization", "emr");
      dropExtension(of(m, "Encounter"), url);
      expect(refused(m)).toEqual([{ code: code(rule), expression: `${at(m, "Encounter")}.extension` }]);
    }
  });

  it("BV-90032: an emergency claim whose period ended carries the department disposition; a prior authorization does not need it", () => {
    const m = message("professional", "claim", "emr");
    dropExtension(of(m, "Encounter"), MDS_EXTENSIONS.emergencyDepartmentDisposition);
    expect(refused(m)).toEqual([{ code: code("emergencyDisposition"), expression: `${at(m, "Encounter")}.extension` }]);
    delete of(m, "Encounter").period.end;
    expect(refused(m)).toEqual([]);
  });

  it("BV-90033: the encounter's period and the emergency times are to the second", () => {
    const m = message("professional", "claim", "emr");
    of(m, "Encounter").period.start = "2026-11-20";
    const triage = of(m, "Encounter").extension.findIndex((e: Json) => e.url === MDS_EXTENSIONS.triageDate);
    of(m, "Encounter").extension[triage].valueDateTime = "2026-11-20";
    expect(refused(m)).toEqual(
      expect.arrayContaining([
        { code: code("encounterSeconds"), expression: `${at(m, "Encounter")}.period.start` },
        { code: code("encounterSeconds"), expression: `${at(m, "Encounter")}.extension[${triage}].valueDateTime` },
      ]),
    );
  });

  it("BV-90034: an inpatient encounter carries its admission", () => {
    const m = message("institutional", "preauthorization", "ip");
    delete of(m, "Encounter").hospitalization.admitSource;
    expect(refused(m)).toEqual([{ code: code("admission"), expression: `${at(m, "Encounter")}.hospitalization.admitSource` }]);
  });

  it("BV-90035: on an inpatient claim, period end, discharge specialty and disposition go together (guide 9.19 notes)", () => {
    const m = message("institutional", "claim", "ip");
    const h = of(m, "Encounter").hospitalization;
    dropExtension(h, MDS_EXTENSIONS.dischargeSpecialty);
    expect(refused(m)).toEqual([{ code: code("discharge"), expression: `${at(m, "Encounter")}.hospitalization.extension` }]);
    const n = message("institutional", "claim", "ip");
    delete of(n, "Encounter").period.end;
    expect(refused(n)).toEqual([{ code: code("discharge"), expression: `${at(n, "Encounter")}.period.end` }]);
  });

  it("IC-90013: the discharge disposition in the exchange's value set; BV-90036: a death carries its cause", () => {
    const m = message("institutional", "claim", "ip");
    of(m, "Encounter").hospitalization.dischargeDisposition = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/discharge-disposition", code: "home" }] };
    expect(refused(m)).toEqual([{ code: code("dischargeDispositionCode"), expression: `${at(m, "Encounter")}.hospitalization.dischargeDisposition` }]);
    of(m, "Encounter").hospitalization.dischargeDisposition = { coding: [{ system: MDS_SYSTEMS.dischargeDisposition, code: "exp" }] };
    expect(refused(m)).toEqual([{ code: code("causeOfDeath"), expression: `${at(m, "Encounter")}.extension` }]);
    of(m, "Encounter").extension = [{ url: MDS_EXTENSIONS.causeOfDeath, valueCodeableConcept: { coding: [{ system: SYSTEMS.icd10am, code: "I21.9" }] } }];
    expect(refused(m)).toEqual([]);
  });

  it("BV-90045: the patient is born on or before the encounter's start", () => {
    const m = message("professional", "claim");
    of(m, "Patient").birthDate = "2026-11-21";
    expect(refused(m)).toEqual([{ code: code("birthBeforeEncounter"), expression: `${at(m, "Patient")}.birthDate` }]);
  });
});

describe("items and diagnoses (MDS note 5.2)", () => {
  it("BV-90037: institutional, professional and pharmacy items carry maternity; oral and vision do not need it", () => {
    const m = message("pharmacy", "claim");
    dropExtension(of(m, "Claim").item[0], MDS_EXTENSIONS.maternity);
    expect(refused(m)).toEqual([{ code: code("maternity"), expression: `${at(m, "Claim")}.item[0].extension` }]);
  });

  it("BV-90038: an institutional claim's diagnoses carry the condition onset; a prior authorization's need not", () => {
    const m = message("institutional", "claim", "ip");
    delete of(m, "Claim").diagnosis[0].extension;
    expect(refused(m)).toEqual([{ code: code("conditionOnset"), expression: `${at(m, "Claim")}.diagnosis[0].extension` }]);
  });
});

describe("supporting information (Table 35 and its notes)", () => {
  it("BV-00770 / BV-00779: the chief complaint, under the exchange's code for institutional and professional", () => {
    for (const [type, rule] of [
      ["institutional", "chiefComplaintInstitutional"],
      ["professional", "chiefComplaintProfessional"],
    ] as const) {
      const m = message(type, "claim", type === "institutional" ? "ip" : "op");
      dropInfo(m, "chief-complaint");
      expect(refused(m)).toEqual([{ code: code(rule), expression: `${at(m, "Claim")}.supportingInfo` }]);
    }
  });

  it("BV-00803 – BV-00806 and BV-00752 on every claim type; BV-90049: a note is a non-empty valueString", () => {
    const notes: [string, RuleId][] = [
      ["treatment-plan", "treatmentPlan"],
      ["patient-history", "patientHistory"],
      ["physical-examination", "physicalExamination"],
      ["history-of-present-illness", "historyOfPresentIllness"],
      ["investigation-result", "investigationResult"],
    ];
    for (const type of ["vision", "pharmacy", "oral"] as const) {
      for (const [category, rule] of notes) {
        const m = message(type, "claim");
        dropInfo(m, category);
        expect(refused(m)).toEqual([{ code: code(rule), expression: `${at(m, "Claim")}.supportingInfo` }]);
      }
    }
    const m = message("professional", "claim");
    const i = of(m, "Claim").supportingInfo.findIndex((x: Json) => x.category.coding[0].code === "treatment-plan");
    of(m, "Claim").supportingInfo[i].valueString = " ";
    expect(refused(m)).toEqual([{ code: code("clinicalNoteValue"), expression: `${at(m, "Claim")}.supportingInfo[${i}].valueString` }]);
  });

  it("BV-90039: a result-attached investigation code carries the attachment; BV-90040: other carries its text", () => {
    const m = message("professional", "claim");
    const i = of(m, "Claim").supportingInfo.findIndex((x: Json) => x.category.coding[0].code === "investigation-result");
    of(m, "Claim").supportingInfo[i].code.coding[0].code = "IRA";
    expect(refused(m)).toEqual([{ code: code("investigationAttachment"), expression: `${at(m, "Claim")}.supportingInfo[${i}].valueAttachment` }]);
    of(m, "Claim").supportingInfo[i].valueAttachment = { contentType: "application/pdf", title: "CBC", data: "JVBERi0=" };
    expect(refused(m)).toEqual([]);
    of(m, "Claim").supportingInfo[i].code.coding[0].code = "other";
    delete of(m, "Claim").supportingInfo[i].valueAttachment;
    expect(refused(m)).toEqual([{ code: code("investigationOther"), expression: `${at(m, "Claim")}.supportingInfo[${i}].code.text` }]);
    of(m, "Claim").supportingInfo[i].code.text = "Throat swab, negative";
    expect(refused(m)).toEqual([]);
  });

  it("BV-90041: a vital sign is a value in its unit or a permissible absence reason, not both", () => {
    const m = message("professional", "claim");
    const good = addInfo(m, "pulse", { valueQuantity: { value: 80, system: SYSTEMS.ucum, code: "/min" } });
    const absent = addInfo(m, "vital-sign-height", { reason: { coding: [{ system: MDS_SYSTEMS.absenceReason("vital-sign-height"), code: "not-applicable" }] } });
    expect(refused(m)).toEqual([]);
    of(m, "Claim").supportingInfo[good].valueQuantity.code = "/h";
    of(m, "Claim").supportingInfo[absent].reason.coding[0].system = "http://example.org/reasons";
    expect(refused(m)).toEqual([
      { code: code("vitalSign"), expression: `${at(m, "Claim")}.supportingInfo[${absent}].reason` },
      { code: code("vitalSign"), expression: `${at(m, "Claim")}.supportingInfo[${good}].valueQuantity` },
    ]);
  });

  it("BV-90042: a diagnosis on the morphology list carries the morphology", () => {
    const m = message("professional", "claim");
    of(m, "Claim").diagnosis[0].diagnosisCodeableConcept.coding[0].code = "C50.9";
    expect(refused(m)).toEqual([{ code: code("morphology"), expression: `${at(m, "Claim")}.supportingInfo` }]);
    addInfo(m, "morphology", { code: { coding: [{ system: MDS_SYSTEMS.morphologyCode, code: "8500/3" }] } });
    expect(refused(m)).toEqual([]);
  });

  it("BV-90043 / BV-90044: the admission weight under one year, on inpatient stays only", () => {
    const m = message("institutional", "claim", "ip");
    of(m, "Patient").birthDate = "2026-10-01";
    expect(refused(m)).toEqual([{ code: code("admissionWeight"), expression: `${at(m, "Claim")}.supportingInfo` }]);
    addInfo(m, "admission-weight", { valueQuantity: { value: 4.1, system: SYSTEMS.ucum, code: "kg" } });
    expect(refused(m)).toEqual([]);
    const p = message("professional", "claim");
    const i = addInfo(p, "admission-weight", { valueQuantity: { value: 4.1, system: SYSTEMS.ucum, code: "kg" } });
    expect(refused(p)).toEqual([{ code: code("admissionWeightOnlyInpatient"), expression: `${at(p, "Claim")}.supportingInfo[${i}]` }]);
  });
});

describe("accidents (6.3.12) and HbA1c (3.5)", () => {
  it("BV-90046 / BV-90047: WPA with a work-related diagnosis and MVA with a road-traffic one, both ways", () => {
    const m = message("professional", "claim");
    m.entry.find((e: Json) => e.resource.resourceType === "Claim").resource.diagnosis.push({
      sequence: 2,
      diagnosisCodeableConcept: { coding: [{ system: SYSTEMS.icd10am, code: "V43.5" }] },
      type: [{ coding: [{ system: SYSTEMS.diagnosisType, code: "secondary" }] }],
    });
    expect(refused(m)).toEqual([{ code: code("accidentRoad"), expression: `${at(m, "Claim")}.accident` }]);
    of(m, "Claim").accident = { date: "2026-11-19", type: { coding: [{ system: MDS_SYSTEMS.accidentType, code: "MVA" }] } };
    expect(refused(m)).toEqual([]);
    of(m, "Claim").diagnosis[1].diagnosisCodeableConcept.coding[0].code = "Y96";
    expect(refused(m).map((f) => f.code)).toEqual([code("accidentWork"), code("accidentRoad")]);
  });

  it("BV-90048: an HbA1c item needs lab-test between 3 and 15 %", () => {
    const m = message("professional", "claim");
    of(m, "Claim").item[0].productOrService.coding[0].code = "73050-18-50";
    expect(refused(m)).toEqual([{ code: code("hba1c"), expression: `${at(m, "Claim")}.supportingInfo` }]);
    const i = addInfo(m, "lab-test", { code: { coding: [{ system: "http://loinc.org", code: "4548-4" }] }, valueQuantity: { value: 22, system: SYSTEMS.ucum, code: "%" } });
    expect(refused(m)).toEqual([{ code: code("hba1c"), expression: `${at(m, "Claim")}.supportingInfo[${i}].valueQuantity` }]);
    of(m, "Claim").supportingInfo[i].valueQuantity.value = 7.1;
    expect(refused(m)).toEqual([]);
  });
});

describe("the strict structure pass and the publisher's error samples (decision 104)", () => {
  it("refuses R4 faults by kind before any business rule: a number as a string, an unknown element, cardinality, a reference target", () => {
    const m = message("professional", "claim");
    of(m, "Claim").item[0].quantity.value = "2";
    delete of(m, "Claim").subType; // a business fault too: not reported while the message is not R4
    expect(refused(m)).toEqual([{ code: code("structure"), expression: `${at(m, "Claim")}.item[0].quantity.value` }]);
    const u = message("professional", "claim");
    of(u, "Coverage").network2 = "gold";
    expect(refused(u)).toEqual([{ code: code("structureElement"), expression: `${at(u, "Coverage")}.network2` }]);
    const c = message("professional", "claim");
    of(c, "Claim").use = ["claim"];
    expect(refused(c)).toEqual([{ code: code("structureCardinality"), expression: `${at(c, "Claim")}.use` }]);
    const r = message("professional", "claim");
    of(r, "Claim").prescription = { reference: "Observation/1" };
    expect(refused(r)).toEqual([{ code: code("structureReference"), expression: `${at(r, "Claim")}.prescription.reference` }]);
  });

  it("IC-90011 / IC-90012 / BV-90027: one system twice, two codes of the item value set, an extension the profiles do not define", () => {
    const m = message("professional", "claim");
    of(m, "Claim").type.coding.push({ system: SYSTEMS.claimType, code: "institutional" });
    expect(refused(m)).toContainEqual({ code: code("codingSystemTwice"), expression: `${at(m, "Claim")}.type.coding[1]` });
    const t = message("professional", "claim");
    of(t, "Claim").item[0].productOrService.coding.push({ system: SYSTEMS.procedures, code: "PRC-1001" });
    expect(refused(t)).toEqual([{ code: code("codingTwoCodes"), expression: `${at(t, "Claim")}.item[0].productOrService.coding[1]` }]);
    const x = message("professional", "claim");
    of(x, "Claim").extension.push({ url: "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-discount", valueDecimal: 5 });
    expect(refused(x)).toEqual([{ code: code("profileElement"), expression: `${at(x, "Claim")}.extension[${of(x, "Claim").extension.length - 1}].url` }]);
    // The guide's own spellings of its extensions pass (Table 10: patientShare / patient-share).
    of(x, "Claim").extension.pop();
    of(x, "Claim").item[0].extension.push({ url: "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-patientInvoice", valueIdentifier: { system: "http://clinic.example/invoice", value: "INV-1" } });
    expect(refused(x)).toEqual([]);
  });

  it("BV-90029: an item's code outside its activation period on its service date", () => {
    const m = message("professional", "claim");
    const activation: CheckContext["codeActivation"] = (system, c) => (system === SYSTEMS.services && c === "83600-00-00" ? { end: "2026-06-30" } : undefined);
    expect(checkMessage(m, { ...ctx, codeActivation: activation }).errors.map((f) => [f.code, f.expression])).toEqual([[code("codeInactive"), `${at(m, "Claim")}.item[0].productOrService`]]);
    of(m, "Claim").item[0].servicedDate = "2026-06-30";
    expect(checkMessage(m, { ...ctx, codeActivation: activation }).errors).toEqual([]);
  });

  it("BV-90028: Claim.procedure is a warning, never a refusal", () => {
    const m = message("professional", "claim");
    of(m, "Claim").procedure = [{ sequence: 1, procedureCodeableConcept: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] } }];
    const report = checkMessage(m, ctx);
    expect(report.errors).toEqual([]);
    expect(report.findings.map((f) => [f.code, f.severity, f.expression])).toEqual([[code("procedureElement"), "warning", `${at(m, "Claim")}.procedure`]]);
  });

  it("a prescriber's predetermination (prescriber-request, use predetermination, prescriber profile) passes", () => {
    const m: Json = exampleClaimMessage("pharmacy", "preauthorization");
    m.entry[0].resource.eventCoding.code = "prescriber-request";
    of(m, "Claim").use = "predetermination";
    of(m, "Claim").meta.profile = ["http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/prescriber-priorauth|1.0.0"];
    of(m, "Patient").maritalStatus = { coding: [{ system: MDS_SYSTEMS.maritalStatus, code: "M" }] };
    // No Minimum Data Set rule refuses it; its lines' MedicationRequests (prescription rules BV-90050 –
    // BV-90053) are the prescription builder's, checked whole in lib/fhir/builders/prescription.test.ts.
    const prescriptionRules = new Set<string>([code("prescriptionLine"), code("prescriptionMedicine"), code("prescriptionAbsenceReason"), code("prescriptionDosage")]);
    expect(refused(m).filter((f) => !prescriptionRules.has(f.code))).toEqual([]);
    of(m, "Claim").use = "claim";
    expect(refused(m).map((f) => f.code)).toContain(code("claimUse"));
  });
});

describe("the catalogue", () => {
  it("every rule says where the guide says it and gives an example; codes are unique", () => {
    const codes = Object.values(RULES).map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const rule of Object.values(RULES)) {
      expect(rule.guide.length).toBeGreaterThan(5);
      expect(rule.example).toMatch(/→/);
      expect(rule.igCode).toBe(!/^[A-Z]{2}-9\d{4}$/.test(rule.code));
    }
  });
});
