import { codeSystemUrl, extensionUrl } from "./canonical";
import { MDS_LIST_SYSTEMS, type MdsListKey } from "./mds-lists";
export { MDS_LIST_SYSTEMS, type MdsListKey } from "./mds-lists";
import type { ClaimType } from "./profiles";
import type { ClaimSubtype } from "./terminology";

/**
 * The exchange's Minimum Data Set (MDS): what guide v2.7 added to every prior authorization and
 * claim (profile release notes 5.2 – 5.2_4, pages 25–28; the Encounter profile 9.19; supporting
 * information 6.3.11 Table 35 and its notes; the accident 6.3.12). One vocabulary for the three
 * parts that use it (docs/decisions/103):
 * - the forms and the machine APIs ask for it (`mdsNeeds` says what a care setting needs);
 * - the message assembly writes it (a Claim carries its Encounter as a contained resource, its
 *   clinical facts in supportingInfo, its item and diagnosis extensions);
 * - the rule module refuses a message that lacks it, under the guide's code where it has one.
 *
 * The code lists here are the portal's demo catalogue of the exchange's value sets (written from
 * the guide and the web guide's ValueSets, our wording): what a form offers before a clinic imports
 * its own lists. Labels are English and Arabic.
 */

export interface Labelled {
  code: string;
  en: string;
  ar: string;
}

/** Extension URLs the MDS adds (guide Table 10 and profile notes 5.2). */
export const MDS_EXTENSIONS = {
  /** Claim.item (.detail): boolean — the line is maternity care. Institutional, professional, pharmacy. */
  maternity: extensionUrl("maternity"),
  /** Claim.item: Identifier — the clinic's invoice number the line was billed on. */
  patientInvoice: extensionUrl("patientInvoice"),
  /** Claim.diagnosis: CodeableConcept (condition-onset) — institutional claims. */
  conditionOnset: extensionUrl("condition-onset"),
  // Encounter
  serviceEventType: extensionUrl("serviceEventType"),
  triageCategory: extensionUrl("triageCategory"),
  triageDate: extensionUrl("triageDate"),
  emergencyArrivalCode: extensionUrl("emergencyArrivalCode"),
  emergencyServiceStart: extensionUrl("emergencyServiceStart"),
  emergencyDepartmentDisposition: extensionUrl("emergencyDepartmentDisposition"),
  causeOfDeath: extensionUrl("causeOfDeath"),
  // Encounter.hospitalization
  admissionSpecialty: extensionUrl("admissionSpecialty"),
  dischargeSpecialty: extensionUrl("dischargeSpecialty"),
  intendedLengthOfStay: extensionUrl("intendedLengthOfStay"),
} as const;

/** Code systems the MDS adds (the exchange's own unless marked). */
export const MDS_SYSTEMS = {
  /** The exchange's diagnosis roles (what real claims use for Claim.diagnosis.type; not HL7's ex-diagnosistype). */
  diagnosisType: codeSystemUrl("diagnosis-type"),
  /** The exchange's organization types (Organization.type; not HL7's organization-type). */
  organizationType: codeSystemUrl("organization-type"),
  conditionOnset: codeSystemUrl("condition-onset"),
  serviceEventType: codeSystemUrl("service-event-type"),
  triageCategory: codeSystemUrl("triage-category"),
  emergencyArrivalCode: codeSystemUrl("emergency-arrival-code"),
  emergencyDepartmentDisposition: codeSystemUrl("emergency-department-disposition"),
  admitSource: codeSystemUrl("admit-source"),
  dischargeDisposition: codeSystemUrl("discharge-disposition"),
  intendedLengthOfStay: codeSystemUrl("intended-length-of-stay"),
  maritalStatus: "http://terminology.hl7.org/CodeSystem/v3-MaritalStatus",
  religion: codeSystemUrl("religion"),
  /** Table 35: the absence reasons of vital signs (one value set per sign; their codes are the exchange's). */
  absenceReason: (sign: VitalSign): string => codeSystemUrl(VITAL_SIGNS[sign].absenceValueSet),
  investigationResult: codeSystemUrl("investigation-result"),
  morphologyCode: codeSystemUrl("morphology-code"),
  accidentType: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
} as const;

/** Encounter classes (v3-ActCode) each care setting allows (guide 9.19). */
export const ENCOUNTER_CLASSES: readonly Labelled[] = [
  { code: "AMB", en: "Outpatient", ar: "عيادات خارجية" },
  { code: "EMER", en: "Emergency", ar: "طوارئ" },
  { code: "HH", en: "Home care", ar: "رعاية منزلية" },
  { code: "IMP", en: "Inpatient", ar: "تنويم" },
  { code: "SS", en: "Day case", ar: "حالة يوم واحد" },
  { code: "VR", en: "Telemedicine", ar: "طب اتصالي" },
];

export function encounterClassesFor(type: ClaimType, subtype: ClaimSubtype): readonly string[] {
  if (subtype === "emr") return ["EMER"];
  if (type === "institutional") return ["IMP", "SS"];
  if (type === "professional") return ["AMB", "HH", "VR"];
  if (type === "oral") return ["AMB"];
  return [];
}

export const SERVICE_EVENT_TYPES: readonly Labelled[] = [
  { code: "ICSE", en: "First visit for this condition", ar: "زيارة أولى لهذه الحالة" },
  { code: "SCSE", en: "Follow-up visit", ar: "زيارة متابعة" },
];

/** Triage categories (guide 9.19: 1 immediate resuscitation … 5 non-urgent). */
export const TRIAGE_CATEGORIES: readonly Labelled[] = [
  { code: "I", en: "1 — Immediate resuscitation", ar: "١ — إنعاش فوري" },
  { code: "VU", en: "2 — Very urgent", ar: "٢ — عاجل جدًا" },
  { code: "U", en: "3 — Urgent", ar: "٣ — عاجل" },
  { code: "S", en: "4 — Standard", ar: "٤ — اعتيادي" },
  { code: "NS", en: "5 — Non-urgent", ar: "٥ — غير عاجل" },
];

/** How the patient reached the emergency department (demo list). */
export const ARRIVAL_CODES: readonly Labelled[] = [
  { code: "POV", en: "Private vehicle", ar: "مركبة خاصة" },
  { code: "GEMSA", en: "Ambulance (emergency medical services)", ar: "إسعاف (الخدمات الإسعافية)" },
  { code: "MOHA", en: "Ministry of Health ambulance", ar: "إسعاف وزارة الصحة" },
  { code: "other", en: "Other", ar: "أخرى" },
  { code: "unknown", en: "Unknown", ar: "غير معروف" },
];

/** Where the patient went after the emergency department (demo list). */
export const EMERGENCY_DISPOSITIONS: readonly Labelled[] = [
  { code: "home", en: "Discharged home", ar: "خروج إلى المنزل" },
  { code: "admitted", en: "Admitted", ar: "تنويم" },
  { code: "transferred", en: "Transferred to another facility", ar: "تحويل إلى منشأة أخرى" },
  { code: "left", en: "Left before treatment ended", ar: "غادر قبل انتهاء العلاج" },
  { code: "expired", en: "Died", ar: "وفاة" },
];

/** Where an inpatient stay was admitted from (demo list). */
export const ADMIT_SOURCES: readonly Labelled[] = [
  { code: "IA", en: "Direct admission", ar: "تنويم مباشر" },
  { code: "EER", en: "From this hospital's emergency room", ar: "من طوارئ المستشفى" },
  { code: "EOP", en: "Referral from another hospital's clinic", ar: "إحالة من عيادة مستشفى آخر" },
  { code: "Others", en: "Other", ar: "أخرى" },
];

/** How an inpatient stay ended (the exchange's discharge-disposition value set; demo list). */
export const DISCHARGE_DISPOSITIONS: readonly Labelled[] = [
  { code: "home", en: "Home", ar: "المنزل" },
  { code: "other-hcf", en: "Another healthcare facility", ar: "منشأة صحية أخرى" },
  { code: "aadvice", en: "Left against advice", ar: "خروج ضد المشورة الطبية" },
  { code: "exp", en: "Died", ar: "وفاة" },
  { code: "oth", en: "Other", ar: "أخرى" },
];

/** The discharge dispositions that mean the patient died (the cause of death is then asked). */
export const DEATH_DISPOSITIONS: readonly string[] = ["exp", "expired"];

/** Whether a diagnosis was there at the start of the encounter (institutional claims; demo list). */
export const CONDITION_ONSETS: readonly Labelled[] = [
  { code: "NR", en: "Not related to the admission", ar: "غير مرتبط بالتنويم" },
  { code: "PA", en: "Present on admission", ar: "موجود عند التنويم" },
  { code: "AD", en: "Arose during the stay", ar: "نشأ أثناء التنويم" },
  { code: "UN", en: "Unknown", ar: "غير معروف" },
];

/** Patient.maritalStatus (required by the MDS, note 5.2). */
export const MARITAL_STATUSES: readonly Labelled[] = [
  { code: "S", en: "Never married", ar: "أعزب" },
  { code: "M", en: "Married", ar: "متزوج" },
  { code: "D", en: "Divorced", ar: "مطلق" },
  { code: "W", en: "Widowed", ar: "أرمل" },
  { code: "U", en: "Unknown", ar: "غير معروف" },
];

/**
 * Patient occupation (extension-occupation, which the Patient profile requires: MDS note 5.2) —
 * demo list, our codes; "unknown" when the patient was not asked.
 */
export const OCCUPATIONS: readonly Labelled[] = [
  { code: "unknown", en: "Not asked", ar: "لم يُسأل" },
  { code: "student", en: "Student", ar: "طالب" },
  { code: "employee", en: "Employee", ar: "موظف" },
  { code: "self-employed", en: "Self-employed", ar: "يعمل لحسابه" },
  { code: "healthcare", en: "Healthcare worker", ar: "عامل في الرعاية الصحية" },
  { code: "homemaker", en: "Homemaker", ar: "ربة منزل" },
  { code: "retired", en: "Retired", ar: "متقاعد" },
  { code: "unemployed", en: "Not working", ar: "لا يعمل" },
];

/** Patient religion (extension-patient-religion, optional: MDS note 5.2) — demo list, our codes. */
export const RELIGIONS: readonly Labelled[] = [
  { code: "muslim", en: "Muslim", ar: "مسلم" },
  { code: "christian", en: "Christian", ar: "مسيحي" },
  { code: "other", en: "Other", ar: "أخرى" },
  { code: "not-stated", en: "Prefers not to say", ar: "يفضّل عدم الذكر" },
];

/** Claim.accident.type (guide 6.3.12). */
export const ACCIDENT_TYPES: readonly Labelled[] = [
  { code: "MVA", en: "Motor vehicle accident", ar: "حادث مركبة" },
  { code: "SCHOOL", en: "School accident", ar: "حادث مدرسي" },
  { code: "SPT", en: "Sporting accident", ar: "حادث رياضي" },
  { code: "WPA", en: "Workplace accident", ar: "إصابة عمل" },
];

/** The vital signs of Table 35: each a value in its UCUM unit or a permissible absence reason. */
export const VITAL_SIGNS = {
  "vital-sign-weight": { unit: "kg", min: 0.2, max: 500, absenceValueSet: "weight-absence-reason", en: "Weight", ar: "الوزن" },
  "vital-sign-height": { unit: "cm", min: 20, max: 260, absenceValueSet: "height-absence-reason", en: "Height", ar: "الطول" },
  "vital-sign-systolic": { unit: "mm[Hg]", min: 30, max: 300, absenceValueSet: "blood-pressure-absence-reason", en: "Systolic pressure", ar: "الضغط الانقباضي" },
  "vital-sign-diastolic": { unit: "mm[Hg]", min: 10, max: 200, absenceValueSet: "blood-pressure-absence-reason", en: "Diastolic pressure", ar: "الضغط الانبساطي" },
  temperature: { unit: "Cel", min: 25, max: 45, absenceValueSet: "temperature-absence-reason", en: "Temperature", ar: "الحرارة" },
  pulse: { unit: "/min", min: 10, max: 300, absenceValueSet: "pulse-absence-reason", en: "Pulse", ar: "النبض" },
  "respiratory-rate": { unit: "/min", min: 2, max: 100, absenceValueSet: "respiratory-rate-absence-reason", en: "Respiratory rate", ar: "معدل التنفس" },
  "oxygen-saturation": { unit: "%", min: 10, max: 100, absenceValueSet: "oxygen-saturation-absence-reason", en: "Oxygen saturation", ar: "تشبع الأكسجين" },
} as const;
export type VitalSign = keyof typeof VITAL_SIGNS;
export const VITAL_SIGN_KEYS = Object.keys(VITAL_SIGNS) as VitalSign[];

/** Why a vital sign was not measured (demo list; the same codes in each sign's value set). */
export const ABSENCE_REASONS: readonly Labelled[] = [
  { code: "not-applicable", en: "Not applicable to this visit", ar: "لا ينطبق على هذه الزيارة" },
  { code: "patient-refused", en: "Patient refused", ar: "رفض المريض" },
  { code: "not-measured", en: "Not measured", ar: "لم يُقَس" },
];

/** Free-text clinical notes of Table 35 (valueString). */
export const CLINICAL_NOTES = {
  "history-of-present-illness": { en: "History of present illness", ar: "تاريخ المرض الحالي" },
  "physical-examination": { en: "Physical examination", ar: "الفحص السريري" },
  "treatment-plan": { en: "Treatment plan", ar: "الخطة العلاجية" },
  "patient-history": { en: "Past medical, surgical and medication history", ar: "التاريخ الطبي والجراحي والدوائي" },
} as const;
export type ClinicalNote = keyof typeof CLINICAL_NOTES;
export const CLINICAL_NOTE_KEYS = Object.keys(CLINICAL_NOTES) as ClinicalNote[];

/** Investigation results (Table 35: a code, an attachment when the code is an attachment code, text when "other"; demo list). */
export const INVESTIGATION_RESULTS: readonly Labelled[] = [
  { code: "INP", en: "Investigation(s) not performed", ar: "لم تُجرَ فحوص" },
  { code: "NRI", en: "No relevant investigation", ar: "لا توجد فحوص ذات صلة" },
  { code: "other", en: "Other (describe)", ar: "أخرى (صف)" },
];

/** Tumour morphology (ICD-O behaviour-coded) for a diagnosis on the morphology list (Table 35 note; demo list, our wording). */
export const MORPHOLOGY_CODES: readonly Labelled[] = [
  { code: "8000/0", en: "Neoplasm, benign", ar: "ورم حميد" },
  { code: "8000/1", en: "Neoplasm, uncertain whether benign or malignant", ar: "ورم غير محدد السلوك" },
  { code: "8000/3", en: "Neoplasm, malignant", ar: "ورم خبيث" },
  { code: "8010/2", en: "Carcinoma in situ", ar: "سرطانة موضعية" },
  { code: "8070/3", en: "Squamous cell carcinoma", ar: "سرطانة الخلايا الحرشفية" },
  { code: "8140/3", en: "Adenocarcinoma", ar: "سرطانة غدية" },
  { code: "8500/3", en: "Infiltrating duct carcinoma", ar: "سرطانة قنوية غازية" },
  { code: "8720/3", en: "Malignant melanoma", ar: "ورم ميلانيني خبيث" },
];

/**
 * The demo entries of the lists a clinic may replace with the exchange's own (`MDS_LIST_SYSTEMS`):
 * the forms and the server's checks read the catalogue (docs/decisions/118), so an imported list is
 * what is offered and accepted.
 */
/** Each list's entries, by key: the demo entries here, the catalogue's (imported or demo) where a form or check reads them. */
export type MdsCodeLists = { readonly [K in MdsListKey]: readonly Labelled[] };
export const MDS_CODE_LISTS: MdsCodeLists = {
  "service-event-type": SERVICE_EVENT_TYPES,
  "triage-category": TRIAGE_CATEGORIES,
  "emergency-arrival-code": ARRIVAL_CODES,
  "emergency-department-disposition": EMERGENCY_DISPOSITIONS,
  "admit-source": ADMIT_SOURCES,
  "discharge-disposition": DISCHARGE_DISPOSITIONS,
  "condition-onset": CONDITION_ONSETS,
  "investigation-result": INVESTIGATION_RESULTS,
  "morphology-code": MORPHOLOGY_CODES,
  "weight-absence-reason": ABSENCE_REASONS,
  "height-absence-reason": ABSENCE_REASONS,
  "blood-pressure-absence-reason": ABSENCE_REASONS,
  "temperature-absence-reason": ABSENCE_REASONS,
  "pulse-absence-reason": ABSENCE_REASONS,
  "respiratory-rate-absence-reason": ABSENCE_REASONS,
  "oxygen-saturation-absence-reason": ABSENCE_REASONS,
  occupation: OCCUPATIONS,
  religion: RELIGIONS,
};
export const MDS_LIST_KEYS = Object.keys(MDS_LIST_SYSTEMS) as MdsListKey[];
/** The list a vital sign's absence reason comes from. */
export const absenceListOf = (sign: VitalSign): MdsListKey => VITAL_SIGNS[sign].absenceValueSet;

/**
 * Diagnoses that need their morphology (Table 35 note), work-related and road-traffic diagnoses
 * that need an accident of that type and back (6.3.12): demo lists by ICD-10-AM code prefix; a
 * clinic imports the exchange's lists.
 */
export const MORPHOLOGY_DIAGNOSIS_PREFIXES: readonly string[] = ["C", "D0", "D1", "D2", "D3", "D4"];
export const WORK_RELATED_DIAGNOSIS_PREFIXES: readonly string[] = ["Y96"];
export const ROAD_TRAFFIC_DIAGNOSIS_PREFIXES: readonly string[] = ["V0", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8"];

/**
 * HbA1c measurement codes: an item billing one carries supportingInfo `lab-test` with the value
 * between 3 and 15 in % (guide 3.5, Note for Implementers, p. 45).
 */
export const HBA1C_ITEM_CODES: readonly string[] = ["73050-18-50", "73050-18-60"];
export const HBA1C_RANGE = { min: 3, max: 15, unit: "%" } as const;

/** Admission weight is required under this age at the encounter's start (Table 35 note). */
export const ADMISSION_WEIGHT_MAX_AGE_DAYS = 365;

/**
 * What the MDS asks of a care setting: which questions a form shows, which elements the assembly
 * writes and the rule module requires. Diagnosis-dependent needs (morphology, accident) and
 * age-dependent ones (admission weight) are functions of the facts, in `mdsNeedsFor`.
 */
export interface MdsNeeds {
  /** An Encounter (extension-encounter): institutional, professional and oral, both uses. */
  encounter: boolean;
  encounterClasses: readonly string[];
  /** Emergency fields: triage category and date, arrival, emergency service start. */
  emergency: boolean;
  /** Inpatient fields: admit source, admission specialty, intended length of stay. */
  inpatient: boolean;
  /** A claim (not a prior authorization) of a stay: discharge specialty and disposition once the stay ended. */
  discharge: boolean;
  /** Every item says whether it is maternity care. */
  maternity: boolean;
  /** Every diagnosis carries its condition onset. */
  conditionOnset: boolean;
  /**
   * The vital signs the form asks, each a value or an absence reason. The rule module checks every
   * sign given (value in its unit, or a permissible absence reason: Table 35 notes) but does not
   * refuse a message without them: the exchange publishes no code for their absence and accepts
   * real claims without them (decision 104).
   */
  vitalSigns: readonly VitalSign[];
  /**
   * The free-text clinical notes required: every claim type, both uses — the exchange refuses
   * their absence under BV-00803 – BV-00806 on professional, oral, pharmacy and vision requests
   * alike (decision 104), as it refuses a missing investigation result (BV-00752).
   */
  clinicalNotes: readonly ClinicalNote[];
  /** The investigation result (a code; "not performed" is one), BV-00752. */
  investigationResult: boolean;
  /**
   * When the visit began (Encounter.period.start, to the minute: guide 9.19 notes) where nothing
   * else of the form says it: an outpatient encounter (a stay starts at its admission, an
   * emergency at its service start).
   */
  visitStart: boolean;
}

export function mdsNeeds(type: ClaimType, subtype: ClaimSubtype, use: "claim" | "preauthorization"): MdsNeeds {
  const encounter = type === "institutional" || type === "professional" || type === "oral";
  const clinical = type === "institutional" || type === "professional";
  return {
    encounter,
    encounterClasses: encounter ? encounterClassesFor(type, subtype) : [],
    emergency: encounter && subtype === "emr",
    inpatient: type === "institutional" && subtype === "ip",
    discharge: type === "institutional" && subtype === "ip" && use === "claim",
    maternity: type === "institutional" || type === "professional" || type === "pharmacy",
    conditionOnset: type === "institutional" && use === "claim",
    vitalSigns: clinical ? VITAL_SIGN_KEYS : [],
    clinicalNotes: CLINICAL_NOTE_KEYS,
    investigationResult: true,
    visitStart: encounter && subtype === "op",
  };
}

const startsWithAny = (code: string, prefixes: readonly string[]) => prefixes.some((p) => code.toUpperCase().startsWith(p));
export const needsMorphology = (diagnoses: readonly string[]) => diagnoses.some((d) => startsWithAny(d, MORPHOLOGY_DIAGNOSIS_PREFIXES));
export const isWorkRelatedDiagnosis = (code: string) => startsWithAny(code, WORK_RELATED_DIAGNOSIS_PREFIXES);
export const isRoadTrafficDiagnosis = (code: string) => startsWithAny(code, ROAD_TRAFFIC_DIAGNOSIS_PREFIXES);
/** The accident type the diagnoses demand (6.3.12), if any. */
export function accidentTypeRequired(diagnoses: readonly string[]): "WPA" | "MVA" | undefined {
  if (diagnoses.some(isWorkRelatedDiagnosis)) return "WPA";
  if (diagnoses.some(isRoadTrafficDiagnosis)) return "MVA";
  return undefined;
}

/**
 * The clinical facts of one visit, as the form and the machine APIs record them and the assembly
 * writes them (docs/decisions/103). Strings as typed (dates YYYY-MM-DDTHH:mm); empty = not given.
 */
export interface ClinicalFacts {
  encounter?: {
    class: string;
    /** When an outpatient visit began. */
    start?: string;
    serviceEventType?: string;
    triageCategory?: string;
    triageDate?: string;
    arrivalCode?: string;
    emergencyServiceStart?: string;
    emergencyDisposition?: string;
    admitSource?: string;
    /** practice-codes specialties. */
    admissionSpecialty?: string;
    dischargeSpecialty?: string;
    /** Whole days. */
    intendedStay?: string;
    dischargeDisposition?: string;
    /** ICD-10-AM code. */
    causeOfDeath?: string;
  };
  /** By sign: a value in its unit, or an absence reason. */
  vitalSigns?: Partial<Record<VitalSign, { value?: string; absent?: string }>>;
  notes?: Partial<Record<ClinicalNote, string>>;
  investigation?: { code: string; text?: string };
  morphology?: string;
  /** kg, inpatient stays of a baby under one year. */
  admissionWeight?: string;
  accident?: { type: string; date: string };
  /** By ICD-10-AM code (like onAdmission). */
  conditionOnset?: Readonly<Record<string, string>>;
}
