import { EXTENSIONS } from "../extensions";
import type { ClaimType } from "../profiles";
import { resolveReference, type MessageEntry, type MessageIndex } from "../references";
import { SYSTEMS } from "../terminology";
import {
  ADMISSION_WEIGHT_MAX_AGE_DAYS,
  CLINICAL_NOTE_KEYS,
  DEATH_DISPOSITIONS,
  HBA1C_ITEM_CODES,
  HBA1C_RANGE,
  MDS_EXTENSIONS,
  MDS_SYSTEMS,
  VITAL_SIGNS,
  isRoadTrafficDiagnosis,
  isWorkRelatedDiagnosis,
  needsMorphology,
  type ClinicalNote,
  type VitalSign,
} from "../mds";
import { finding, type Finding, type RuleId } from "./catalogue";

/**
 * The Minimum Data Set's rules (guide v2.7: MDS notes 5.2, the Encounter profile 9.19 and its
 * notes, Table 35 and its notes, 6.3.12 accidents, the HbA1c note of 3.5), applied to one Claim
 * of a claim or prior authorization with the Encounter and Patient it names. The vocabulary is
 * lib/fhir/nphies/mds.ts (decision 103); which rule answers what is docs/decisions/104.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const codings = (concept: unknown): Json[] => (isObject(concept) ? list(concept.coding) : []);
const extensionOf = (element: Json, url: string): Json | undefined => list(element.extension).find((e) => e.url === url);
const conceptCode = (concept: unknown, system?: string): string | undefined => {
  const code = codings(concept).find((c) => system === undefined || c.system === system)?.code;
  return typeof code === "string" && code ? code : undefined;
};
const DAY = /^\d{4}-\d{2}-\d{2}/;
const dayOf = (value: unknown): string | undefined => (typeof value === "string" && DAY.test(value) ? value.slice(0, 10) : undefined);
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
/** A date-time to the second (guide 9.19 notes: seconds may be 00, minutes must be given). */
const TO_THE_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** The clinical notes and the rule that answers each one's absence (BV-00803 – BV-00806). */
const NOTE_RULES: Readonly<Record<ClinicalNote, RuleId>> = {
  "treatment-plan": "treatmentPlan",
  "patient-history": "patientHistory",
  "physical-examination": "physicalExamination",
  "history-of-present-illness": "historyOfPresentIllness",
};

/** Investigation-result codes that need no attachment: not performed, no relevant investigation, other (with text). */
const INVESTIGATION_WITHOUT_ATTACHMENT: readonly string[] = ["INP", "NRI", "other"];

/** Encounter classes each claim type takes (guide 9.19, the claim type × class table, p. 130). */
const CLASSES_BY_TYPE: Partial<Record<ClaimType, { classes: readonly string[]; rule: RuleId }>> = {
  institutional: { classes: ["IMP", "SS"], rule: "encounterClassInstitutional" },
  professional: { classes: ["AMB", "EMER", "HH", "VR"], rule: "encounterClassProfessional" },
  oral: { classes: ["AMB"], rule: "encounterClassOral" },
};

export interface MdsClaim {
  claim: Json;
  entry: MessageEntry;
  /** FHIRPath of the Claim (`Bundle.entry[1].resource`). */
  at: string;
  /** FHIRPath of the message Bundle the Claim is in. */
  bundleAt: string;
  index: MessageIndex;
  type: ClaimType;
  subtype: string | undefined;
  use: "claim" | "preauthorization";
}

interface Located {
  resource: Json;
  at: string;
}

/** The Encounter the Claim names (extension-encounter): an entry of the Bundle, or contained (`#encounter`, decision 103). */
function encounterOf(c: MdsClaim): Located | undefined {
  const ext = extensionOf(c.claim, EXTENSIONS.encounter);
  if (!ext) return undefined;
  const reference = ext.valueReference;
  if (isObject(reference) && typeof reference.reference === "string" && reference.reference.startsWith("#")) {
    const id = reference.reference.slice(1);
    const i = list(c.claim.contained).findIndex((r) => r.id === id && r.resourceType === "Encounter");
    return i >= 0 ? { resource: list(c.claim.contained)[i]!, at: `${c.at}.contained[${i}]` } : undefined;
  }
  const resolution = resolveReference(c.index, reference, c.entry);
  if (resolution.kind !== "entry" || resolution.entry.resource?.resourceType !== "Encounter") return undefined;
  return { resource: resolution.entry.resource, at: `${c.bundleAt}.entry[${resolution.entry.index}].resource` };
}

function patientOf(c: MdsClaim): Located | undefined {
  const resolution = resolveReference(c.index, c.claim.patient, c.entry);
  if (resolution.kind !== "entry" || resolution.entry.resource?.resourceType !== "Patient") return undefined;
  return { resource: resolution.entry.resource, at: `${c.bundleAt}.entry[${resolution.entry.index}].resource` };
}

/** Every MDS rule on one Claim (a claim or a prior authorization; not a prescriber's predetermination). */
export function checkMinimumDataSet(c: MdsClaim, out: Finding[]): void {
  const encounter = encounterOf(c);
  const needsEncounter = c.type === "institutional" || c.type === "professional" || c.type === "oral";
  if (needsEncounter && !extensionOf(c.claim, EXTENSIONS.encounter)) out.push(finding("encounterRequired", `${c.at}.extension`, `A ${c.type} ${c.use} names its Encounter.`));
  if (encounter) checkEncounter(c, encounter, out);

  const patient = patientOf(c);
  const start = dayOf(encounter && isObject(encounter.resource.period) ? encounter.resource.period.start : undefined);
  const birth = dayOf(patient?.resource.birthDate);
  if (patient && birth && start && birth > start) out.push(finding("birthBeforeEncounter", `${patient.at}.birthDate`));

  checkItems(c, out);
  checkDiagnoses(c, out);
  checkSupportingInfo(c, encounter, birth && start ? daysBetween(birth, start) : undefined, out);
  checkAccident(c, out);
}

function checkEncounter(c: MdsClaim, encounter: Located, out: Finding[]): void {
  const e = encounter.resource;
  const at = encounter.at;
  const klass = isObject(e.class) && typeof e.class.code === "string" ? e.class.code : undefined;
  const allowed = CLASSES_BY_TYPE[c.type];
  // The class table of the guide (9.19) holds for every subtype: an institutional emergency (class
  // EMER) is refused under BV-00741 — an emergency visit is billed as a professional claim.
  if (allowed && klass && !allowed.classes.includes(klass)) out.push(finding(allowed.rule, `${at}.class`, `Found "${klass}".`));
  if (c.subtype === "emr" && klass !== "EMER") out.push(finding("encounterClassEmergency", `${at}.class`, klass ? `Found "${klass}".` : undefined));
  if ((c.type === "professional" || c.type === "oral") && !extensionOf(e, MDS_EXTENSIONS.serviceEventType)) out.push(finding("serviceEventType", `${at}.extension`));

  const period = isObject(e.period) ? e.period : undefined;
  for (const key of ["start", "end"] as const) {
    const value = period?.[key];
    if (typeof value === "string" && !TO_THE_SECOND.test(value)) out.push(finding("encounterSeconds", `${at}.period.${key}`));
  }
  const ended = typeof period?.end === "string" && period.end !== "";

  if (klass === "EMER") {
    const triageDate = extensionOf(e, MDS_EXTENSIONS.triageDate);
    if (!triageDate) out.push(finding("triageDate", `${at}.extension`));
    if (!conceptCode(extensionOf(e, MDS_EXTENSIONS.triageCategory)?.valueCodeableConcept, MDS_SYSTEMS.triageCategory)) out.push(finding("triageCategory", `${at}.extension`));
    if (!extensionOf(e, MDS_EXTENSIONS.emergencyArrivalCode)) out.push(finding("arrivalCode", `${at}.extension`));
    const serviceStart = extensionOf(e, MDS_EXTENSIONS.emergencyServiceStart);
    if (!serviceStart) out.push(finding("emergencyServiceStart", `${at}.extension`));
    list(e.extension).forEach((ext, i) => {
      if ((ext === triageDate || ext === serviceStart) && typeof ext.valueDateTime === "string" && !TO_THE_SECOND.test(ext.valueDateTime)) {
        out.push(finding("encounterSeconds", `${at}.extension[${i}].valueDateTime`));
      }
    });
    if (c.use === "claim" && ended && !extensionOf(e, MDS_EXTENSIONS.emergencyDepartmentDisposition)) out.push(finding("emergencyDisposition", `${at}.extension`));
  }

  const hospitalization = isObject(e.hospitalization) ? e.hospitalization : undefined;
  if (klass === "IMP" || klass === "SS") {
    const hAt = `${at}.hospitalization`;
    if (!hospitalization?.admitSource) out.push(finding("admission", `${hAt}.admitSource`));
    if (!hospitalization || !extensionOf(hospitalization, MDS_EXTENSIONS.admissionSpecialty)) out.push(finding("admission", `${hAt}.extension`, "The admission specialty (extension-admissionSpecialty) is missing."));
    if (!hospitalization || !extensionOf(hospitalization, MDS_EXTENSIONS.intendedLengthOfStay)) out.push(finding("admission", `${hAt}.extension`, "The intended length of stay (extension-intendedLengthOfStay) is missing."));
    if (c.use === "claim") {
      // Guide 9.19 notes (p. 132–133): period.end, discharge specialty and disposition go together.
      const specialty = hospitalization ? extensionOf(hospitalization, MDS_EXTENSIONS.dischargeSpecialty) : undefined;
      const disposition = hospitalization?.dischargeDisposition;
      if (ended || specialty || disposition) {
        if (!ended) out.push(finding("discharge", `${at}.period.end`));
        if (!specialty) out.push(finding("discharge", `${hAt}.extension`, "The discharge specialty (extension-dischargeSpecialty) is missing."));
        if (!disposition) out.push(finding("discharge", `${hAt}.dischargeDisposition`));
      }
    }
  }
  if (hospitalization?.dischargeDisposition !== undefined && !conceptCode(hospitalization.dischargeDisposition, MDS_SYSTEMS.dischargeDisposition)) {
    out.push(finding("dischargeDispositionCode", `${at}.hospitalization.dischargeDisposition`));
  }
  const dispositions = [conceptCode(hospitalization?.dischargeDisposition), conceptCode(extensionOf(e, MDS_EXTENSIONS.emergencyDepartmentDisposition)?.valueCodeableConcept)];
  if (dispositions.some((d) => d !== undefined && DEATH_DISPOSITIONS.includes(d)) && !extensionOf(e, MDS_EXTENSIONS.causeOfDeath)) out.push(finding("causeOfDeath", `${at}.extension`));
}

function checkItems(c: MdsClaim, out: Finding[]): void {
  const maternity = c.type === "institutional" || c.type === "professional" || c.type === "pharmacy";
  list(c.claim.item).forEach((item, i) => {
    if (!maternity) return;
    const ext = extensionOf(item, MDS_EXTENSIONS.maternity);
    if (!ext || typeof ext.valueBoolean !== "boolean") out.push(finding("maternity", `${c.at}.item[${i}].extension`));
  });
  // HbA1c (guide 3.5, p. 45): the item requires lab-test between 3 and 15 %.
  const hba1c = list(c.claim.item).some((item) => codings(item.productOrService).some((coding) => HBA1C_ITEM_CODES.includes(String(coding.code))));
  if (!hba1c) return;
  const labTests = infoOf(c.claim, "lab-test");
  const fits = labTests.some(({ info }) => {
    const q = isObject(info.valueQuantity) ? info.valueQuantity : undefined;
    return q !== undefined && q.system === SYSTEMS.ucum && q.code === HBA1C_RANGE.unit && typeof q.value === "number" && q.value >= HBA1C_RANGE.min && q.value <= HBA1C_RANGE.max;
  });
  if (!fits) out.push(finding("hba1c", labTests[0] ? `${c.at}.supportingInfo[${labTests[0].i}].valueQuantity` : `${c.at}.supportingInfo`));
}

function diagnosisCodes(claim: Json, roles?: readonly string[]): string[] {
  return list(claim.diagnosis).flatMap((d) => {
    if (roles && !list(d.type).some((t) => codings(t).some((c) => roles.includes(String(c.code))))) return [];
    return codings(d.diagnosisCodeableConcept).flatMap((c) => (typeof c.code === "string" ? [c.code] : []));
  });
}

function checkDiagnoses(c: MdsClaim, out: Finding[]): void {
  if (c.type !== "institutional" || c.use !== "claim") return;
  list(c.claim.diagnosis).forEach((d, i) => {
    if (!extensionOf(d, MDS_EXTENSIONS.conditionOnset)) out.push(finding("conditionOnset", `${c.at}.diagnosis[${i}].extension`));
  });
}

function infoOf(claim: Json, category: string): { info: Json; i: number }[] {
  return list(claim.supportingInfo)
    .map((info, i) => ({ info, i }))
    .filter(({ info }) => codings(info.category).some((coding) => coding.system === SYSTEMS.claimInformationCategory && coding.code === category));
}

function checkSupportingInfo(c: MdsClaim, encounter: Located | undefined, ageDays: number | undefined, out: Finding[]): void {
  const at = `${c.at}.supportingInfo`;
  // Clinical notes (BV-00803 – BV-00806): present, each a non-empty valueString.
  for (const note of CLINICAL_NOTE_KEYS) {
    const found = infoOf(c.claim, note);
    if (found.length === 0) out.push(finding(NOTE_RULES[note], at));
    for (const { info, i } of found) {
      if (typeof info.valueString !== "string" || info.valueString.trim() === "") out.push(finding("clinicalNoteValue", `${at}[${i}].valueString`));
    }
  }
  // Investigation result (BV-00752) and the notes of Table 35 on it.
  const investigations = infoOf(c.claim, "investigation-result");
  if (investigations.length === 0) out.push(finding("investigationResult", at));
  for (const { info, i } of investigations) {
    const code = conceptCode(info.code, MDS_SYSTEMS.investigationResult);
    if (!code) {
      out.push(finding("investigationResult", `${at}[${i}].code`, "The code must come from investigation-result."));
      continue;
    }
    if (code === "other" && !(isObject(info.code) && typeof info.code.text === "string" && info.code.text.trim())) out.push(finding("investigationOther", `${at}[${i}].code.text`));
    if (!INVESTIGATION_WITHOUT_ATTACHMENT.includes(code) && !isObject(info.valueAttachment)) out.push(finding("investigationAttachment", `${at}[${i}].valueAttachment`));
  }
  // Vital signs: each given sign a value in its unit or an absence reason, not both.
  for (const sign of Object.keys(VITAL_SIGNS) as VitalSign[]) {
    for (const { info, i } of infoOf(c.claim, sign)) {
      const quantity = isObject(info.valueQuantity) ? info.valueQuantity : undefined;
      const reason = conceptCode(info.reason, MDS_SYSTEMS.absenceReason(sign));
      const unit = VITAL_SIGNS[sign].unit;
      if (quantity && info.reason !== undefined) out.push(finding("vitalSign", `${at}[${i}].reason`, "Give a value or an absence reason, not both."));
      else if (quantity) {
        if (quantity.system !== SYSTEMS.ucum || quantity.code !== unit || typeof quantity.value !== "number") out.push(finding("vitalSign", `${at}[${i}].valueQuantity`, `${sign} is in ${unit}.`));
      } else if (!reason) out.push(finding("vitalSign", info.reason === undefined ? `${at}[${i}]` : `${at}[${i}].reason`, `${sign}: a value in ${unit} or a reason from its absence value set.`));
    }
  }
  // Morphology (Table 35 notes): a principal or secondary diagnosis on the morphology list.
  if (needsMorphology(diagnosisCodes(c.claim, ["principal", "secondary"])) && infoOf(c.claim, "morphology").length === 0) out.push(finding("morphology", at));
  // Admission weight (Table 35 notes): inpatient stays (institutional, IMP) under 365 days; only there.
  const klass = encounter && isObject(encounter.resource.class) ? encounter.resource.class.code : undefined;
  const inpatient = c.type === "institutional" && klass === "IMP";
  const weights = infoOf(c.claim, "admission-weight");
  if (inpatient && ageDays !== undefined && ageDays < ADMISSION_WEIGHT_MAX_AGE_DAYS && weights.length === 0) out.push(finding("admissionWeight", at, `The patient is ${ageDays} days old at the encounter's start.`));
  for (const { info, i } of weights) {
    const q = isObject(info.valueQuantity) ? info.valueQuantity : undefined;
    if (!inpatient) out.push(finding("admissionWeightOnlyInpatient", `${at}[${i}]`));
    else if (!q || q.system !== SYSTEMS.ucum || q.code !== "kg" || typeof q.value !== "number") out.push(finding("admissionWeightOnlyInpatient", `${at}[${i}].valueQuantity`, "It is in kilograms."));
  }
}

/** 6.3.12: WPA ↔ a work-related diagnosis, MVA ↔ a road-traffic diagnosis, both ways. */
function checkAccident(c: MdsClaim, out: Finding[]): void {
  const diagnoses = diagnosisCodes(c.claim);
  const accident = isObject(c.claim.accident) ? c.claim.accident : undefined;
  const type = conceptCode(accident?.type);
  const where = accident ? `${c.at}.accident.type` : `${c.at}.accident`;
  const work = diagnoses.some(isWorkRelatedDiagnosis);
  const road = diagnoses.some(isRoadTrafficDiagnosis);
  if (work && type !== "WPA") out.push(finding("accidentWork", where, "A work-related diagnosis needs an accident of type WPA."));
  if (!work && type === "WPA") out.push(finding("accidentWork", where, "An accident of type WPA needs a work-related diagnosis."));
  if (road && type !== "MVA" && !(work && type === "WPA")) out.push(finding("accidentRoad", where, "A road-traffic diagnosis needs an accident of type MVA."));
  if (!road && type === "MVA") out.push(finding("accidentRoad", where, "An accident of type MVA needs a road-traffic diagnosis."));
}
