import { z } from "zod";
import { type ClaimSubtype, type ClaimType } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";

/**
 * The visit's clinical facts on the prior-authorization / claim form (the exchange's Minimum Data
 * Set, docs/decisions/103): the shape of `mds.ClinicalFacts`, as typed (strings; empty = not
 * given). The base form schema accepts them in both protocols; `clinicalIssues` says what the
 * exchange requires of this care setting and these diagnoses — applied where the message goes to
 * the national exchange (messaging), in the browser and again on the server and the machine APIs.
 * Messages are catalogue keys under `authorizations.errors`.
 */
const text = (max: number) => z.string().trim().max(max, "textTooLong").default("");

const encounterSchema = z.object({
  class: text(8),
  /** When an outpatient visit began (YYYY-MM-DDTHH:mm), Encounter.period.start. */
  start: text(19),
  serviceEventType: text(16),
  triageCategory: text(8),
  triageDate: text(19),
  arrivalCode: text(16),
  emergencyServiceStart: text(19),
  emergencyDisposition: text(32),
  admitSource: text(16),
  admissionSpecialty: text(16),
  dischargeSpecialty: text(16),
  intendedStay: text(3),
  dischargeDisposition: text(32),
  causeOfDeath: text(16),
});

const vitalSchema = z.object({ value: text(8), absent: text(40) });

export const clinicalSchema = z.object({
  encounter: encounterSchema.default(encounterSchema.parse({})),
  vitalSigns: z.partialRecord(z.enum(mds.VITAL_SIGN_KEYS), vitalSchema).default({}),
  notes: z.partialRecord(z.enum(mds.CLINICAL_NOTE_KEYS), text(4000)).default({}),
  investigation: z.object({ code: text(40), text: text(1000) }).default({ code: "", text: "" }),
  morphology: text(20),
  /** kg. */
  admissionWeight: text(8),
  accident: z.object({ type: text(10), date: text(10) }).default({ type: "", date: "" }),
  /** By ICD-10-AM code, like onAdmission. */
  conditionOnset: z.record(z.string().max(16), z.string().max(8)).default({}),
});
export type ClinicalValues = z.output<typeof clinicalSchema>;
export const EMPTY_CLINICAL: ClinicalValues = clinicalSchema.parse({});

const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isMoment = (v: string) => MOMENT.test(v) && !Number.isNaN(new Date(`${v}Z`).getTime());
const codes = (list: readonly mds.Labelled[]) => list.map((l) => l.code);
const number = (v: string) => (/^\d{1,4}(?:\.\d{1,2})?$/.test(v) ? Number(v) : undefined);

export interface ClinicalContext {
  use: "claim" | "preauthorization";
  claimType: ClaimType;
  subtype: ClaimSubtype;
  /** ICD-10-AM codes, the first the principal. */
  diagnoses: readonly string[];
  /** The stay's end (the form's discharge), when known. */
  discharge: string;
  clinical: ClinicalValues;
  /**
   * The value sets as the catalogue holds them (the clinic's imports; docs/decisions/118). Absent:
   * the demo lists of lib/fhir's MDS module.
   */
  lists?: mds.MdsCodeLists;
}

type Issue = { path: (string | number)[]; message: string };

/**
 * An inpatient stay of a baby under one year carries the admission weight (Table 35 note: age =
 * the encounter's start − the birth date, under 365 days). Needs the patient's birth date, so it is
 * the server's check once the patient is known (the form shows the field by the same rule).
 */
export function admissionWeightIssue(values: Pick<ClinicalContext, "claimType" | "subtype" | "use" | "clinical"> & { admission: string }, birthDate: string | undefined): Issue | undefined {
  if (!mds.mdsNeeds(values.claimType, values.subtype, values.use).inpatient || !birthDate || values.admission === "") return undefined;
  const age = Math.floor((Date.parse(`${values.admission.slice(0, 10)}T00:00:00Z`) - Date.parse(`${birthDate.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
  if (Number.isNaN(age) || age < 0 || age >= mds.ADMISSION_WEIGHT_MAX_AGE_DAYS) return undefined;
  return values.clinical.admissionWeight === "" ? { path: ["clinical", "admissionWeight"], message: "admissionWeightRequired" } : undefined;
}

/**
 * What the exchange's Minimum Data Set requires of this visit that is missing or wrong, as field
 * errors by path (`clinical.encounter.triageCategory` …). Codes must come from the catalogue's
 * lists (`values.lists`: what the form offered and the server reads), else from the demo lists.
 */
export function clinicalIssues(values: ClinicalContext): Issue[] {
  const needs = mds.mdsNeeds(values.claimType, values.subtype, values.use);
  const c = values.clinical;
  const e = c.encounter;
  const issues: Issue[] = [];
  const lists = values.lists ?? mds.MDS_CODE_LISTS;
  const allowed = (key: mds.MdsListKey) => codes(lists[key]);
  const at = (...path: (string | number)[]) => ["clinical", ...path];
  const need = (value: string, allowed: readonly string[] | undefined, path: (string | number)[], missing: string) => {
    if (value === "") issues.push({ path, message: missing });
    else if (allowed && !allowed.includes(value)) issues.push({ path, message: "codeNotInList" });
  };
  if (needs.encounter) {
    if (e.class === "" && needs.encounterClasses.length > 1) issues.push({ path: at("encounter", "class"), message: "encounterClassRequired" });
    else if (e.class !== "" && !needs.encounterClasses.includes(e.class)) issues.push({ path: at("encounter", "class"), message: "encounterClassNotAllowed" });
    need(e.serviceEventType, allowed("service-event-type"), at("encounter", "serviceEventType"), "serviceEventTypeRequired");
  }
  if (needs.visitStart && !isMoment(e.start)) issues.push({ path: at("encounter", "start"), message: e.start === "" ? "visitStartRequired" : "dateTimeInvalid" });
  if (needs.emergency) {
    need(e.triageCategory, allowed("triage-category"), at("encounter", "triageCategory"), "triageCategoryRequired");
    if (!isMoment(e.triageDate)) issues.push({ path: at("encounter", "triageDate"), message: e.triageDate === "" ? "triageDateRequired" : "dateTimeInvalid" });
    need(e.arrivalCode, allowed("emergency-arrival-code"), at("encounter", "arrivalCode"), "arrivalCodeRequired");
    if (!isMoment(e.emergencyServiceStart)) issues.push({ path: at("encounter", "emergencyServiceStart"), message: e.emergencyServiceStart === "" ? "emergencyServiceStartRequired" : "dateTimeInvalid" });
    if (values.use === "claim" && values.discharge !== "") need(e.emergencyDisposition, allowed("emergency-department-disposition"), at("encounter", "emergencyDisposition"), "emergencyDispositionRequired");
  }
  if (needs.inpatient) {
    need(e.admitSource, allowed("admit-source"), at("encounter", "admitSource"), "admitSourceRequired");
    need(e.admissionSpecialty, undefined, at("encounter", "admissionSpecialty"), "admissionSpecialtyRequired");
    if (e.intendedStay !== "" && !(/^\d{1,3}$/.test(e.intendedStay) && Number(e.intendedStay) >= 1)) issues.push({ path: at("encounter", "intendedStay"), message: "estimatedStayInvalid" });
  }
  if (needs.discharge && values.discharge !== "") {
    need(e.dischargeSpecialty, undefined, at("encounter", "dischargeSpecialty"), "dischargeSpecialtyRequired");
    need(e.dischargeDisposition, allowed("discharge-disposition"), at("encounter", "dischargeDisposition"), "dischargeDispositionRequired");
  }
  if ((mds.DEATH_DISPOSITIONS.includes(e.dischargeDisposition) || mds.DEATH_DISPOSITIONS.includes(e.emergencyDisposition)) && e.causeOfDeath === "") {
    issues.push({ path: at("encounter", "causeOfDeath"), message: "causeOfDeathRequired" });
  }
  for (const sign of needs.vitalSigns) {
    const v = c.vitalSigns[sign] ?? { value: "", absent: "" };
    const spec = mds.VITAL_SIGNS[sign];
    if (v.value === "" && v.absent === "") issues.push({ path: at("vitalSigns", sign, "value"), message: "vitalSignRequired" });
    else if (v.value !== "" && v.absent !== "") issues.push({ path: at("vitalSigns", sign, "absent"), message: "vitalSignValueOrReason" });
    else if (v.value !== "") {
      const n = number(v.value);
      if (n === undefined || n < spec.min || n > spec.max) issues.push({ path: at("vitalSigns", sign, "value"), message: "vitalSignOutOfRange" });
    } else if (!allowed(mds.absenceListOf(sign)).includes(v.absent)) issues.push({ path: at("vitalSigns", sign, "absent"), message: "codeNotInList" });
  }
  for (const note of needs.clinicalNotes) if ((c.notes[note] ?? "") === "") issues.push({ path: at("notes", note), message: "clinicalNoteRequired" });
  if (needs.investigationResult && c.investigation.code === "") issues.push({ path: at("investigation", "code"), message: "investigationRequired" });
  else if (c.investigation.code !== "" && !allowed("investigation-result").includes(c.investigation.code)) issues.push({ path: at("investigation", "code"), message: "codeNotInList" });
  if (c.investigation.code === "other" && c.investigation.text === "") issues.push({ path: at("investigation", "text"), message: "investigationTextRequired" });
  if (mds.needsMorphology(values.diagnoses) && c.morphology === "") issues.push({ path: at("morphology"), message: "morphologyRequired" });
  else if (c.morphology !== "" && !allowed("morphology-code").includes(c.morphology)) issues.push({ path: at("morphology"), message: "codeNotInList" });
  if (c.admissionWeight !== "") {
    const kg = number(c.admissionWeight);
    if (!needs.inpatient) issues.push({ path: at("admissionWeight"), message: "admissionWeightInpatientOnly" });
    else if (kg === undefined || kg <= 0 || kg > 30) issues.push({ path: at("admissionWeight"), message: "admissionWeightInvalid" });
  }
  const accident = mds.accidentTypeRequired(values.diagnoses);
  if (accident && c.accident.type !== accident) issues.push({ path: at("accident", "type"), message: accident === "WPA" ? "workAccidentRequired" : "roadAccidentRequired" });
  if (c.accident.type !== "") {
    if (!codes(mds.ACCIDENT_TYPES).includes(c.accident.type)) issues.push({ path: at("accident", "type"), message: "codeNotInList" });
    if (!DAY.test(c.accident.date)) issues.push({ path: at("accident", "date"), message: c.accident.date === "" ? "accidentDateRequired" : "dateInvalid" });
    if (c.accident.type === "WPA" && !values.diagnoses.some(mds.isWorkRelatedDiagnosis)) issues.push({ path: at("accident", "type"), message: "workAccidentNeedsDiagnosis" });
    if (c.accident.type === "MVA" && !values.diagnoses.some(mds.isRoadTrafficDiagnosis)) issues.push({ path: at("accident", "type"), message: "roadAccidentNeedsDiagnosis" });
  }
  if (needs.conditionOnset) {
    for (const code of values.diagnoses) {
      const onset = Object.hasOwn(c.conditionOnset, code) ? c.conditionOnset[code] : undefined;
      if (onset === undefined) {
        issues.push({ path: at("conditionOnset"), message: "conditionOnsetRequired" });
        break;
      }
      if (!allowed("condition-onset").includes(onset)) {
        issues.push({ path: at("conditionOnset"), message: "codeNotInList" });
        break;
      }
    }
  }
  return issues;
}
