import { NPHIES_IDENTIFIER_BASE, NPHIES_LICENSE_BASE, codeSystemUrl } from "./canonical";
import type { ClaimType } from "./profiles";
import type { RuleId } from "./rules/catalogue";

/**
 * The exchange's terminology: code system URLs, identifier systems and the small value sets that
 * decide a rule (which item code systems a claim type may use, which subtypes it allows …). Large
 * licensed code sets (the service, procedure, oral-health and medication codes, ICD-10-AM) are not
 * here: the portal imports the clinic's own files into catalogue tables; only their systems are.
 */
export const SYSTEMS = {
  // HL7 systems the exchange binds
  claimType: "http://terminology.hl7.org/CodeSystem/claim-type",
  careTeamRole: "http://terminology.hl7.org/CodeSystem/claimcareteamrole",
  payeeType: "http://terminology.hl7.org/CodeSystem/payeetype",
  processPriority: "http://terminology.hl7.org/CodeSystem/processpriority",
  subscriberRelationship: "http://terminology.hl7.org/CodeSystem/subscriber-relationship",
  coverageClass: "http://terminology.hl7.org/CodeSystem/coverage-class",
  identifierType: "http://terminology.hl7.org/CodeSystem/v2-0203",
  encounterClass: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
  relatedClaimRelationship: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship",
  icd10am: "http://hl7.org/fhir/sid/icd-10-am",
  /** UCUM units (Quantity.system): the birth weight in `kg` (rule BV-00509), days (`d`) of supply and of an estimated stay. */
  ucum: "http://unitsofmeasure.org",
  // The exchange's own systems
  /**
   * Diagnosis roles (`Claim.diagnosis.type`): the exchange's own system, as every real claim and
   * authorization codes it — not HL7's ex-diagnosistype (decision 104). Same codes.
   */
  diagnosisType: codeSystemUrl("diagnosis-type"),
  /** Organization types (`Organization.type`: prov, ins …): the exchange's own system, not HL7's (decision 104). */
  organizationType: codeSystemUrl("organization-type"),
  messageEvents: codeSystemUrl("ksa-message-events"),
  claimSubtype: codeSystemUrl("claim-subtype"),
  claimInformationCategory: codeSystemUrl("claim-information-category"),
  /** Whether a diagnosis was present on admission (`Claim.diagnosis.onAdmission`, rule BV-00027). */
  diagnosisOnAdmission: codeSystemUrl("diagnosis-on-admission"),
  /** How a claim names an earlier one (`Claim.related.relationship`): `prior` for a resubmission or appeal (decision 081). */
  relatedClaimRelationshipExchange: codeSystemUrl("related-claim-relationship"),
  services: codeSystemUrl("services"),
  procedures: codeSystemUrl("procedures"),
  oralHealthOp: codeSystemUrl("oral-health-op"),
  oralHealthIp: codeSystemUrl("oral-health-ip"),
  medicationCodes: codeSystemUrl("medication-codes"),
  scientificCodes: codeSystemUrl("scientific-codes"),
  /**
   * Prescriptions (guide 7.11): why a line names a GTIN instead of a scientific code, why the
   * pharmacist dispensed another medicine, and what the substitute is. The guide names the
   * extensions but not their codes in its text; these are the portal's own short lists
   * (docs/decisions/116), checked by system and presence only.
   */
  absenceOfScientificCode: codeSystemUrl("absence-scientific-code"),
  pharmacistSelectionReason: codeSystemUrl("pharmacist-selection-reason"),
  pharmacistSubstitute: codeSystemUrl("pharmacist-substitute"),
  medicalDevices: codeSystemUrl("medical-devices"),
  imaging: codeSystemUrl("imaging"),
  laboratory: codeSystemUrl("laboratory"),
  transportation: codeSystemUrl("transportation-srca"),
  mohCategory: codeSystemUrl("moh-category"),
  fdiOralRegion: codeSystemUrl("fdi-oral-region"),
  bodySite: codeSystemUrl("body-site"),
  practiceCodes: codeSystemUrl("practice-codes"),
  providerType: codeSystemUrl("provider-type"),
  coverageType: codeSystemUrl("coverage-type"),
  /** supportingInfo reason-for-visit codes (Table 35): new visit, follow-up, refill, walk-in, referral (guide 7.3 step 4). */
  visitReason: codeSystemUrl("visit-reason"),
  occupation: codeSystemUrl("occupation"),
  /** The guide's CodeSystem id is `siteEligibility` (camel case, like its extension). */
  siteEligibility: codeSystemUrl("siteEligibility"),
  taskCode: codeSystemUrl("task-code"),
  taskReason: codeSystemUrl("task-reason-code"),
  taskInputType: codeSystemUrl("task-input-type"),
  taskOutputType: codeSystemUrl("task-output-type"),
  adjudicationOutcome: codeSystemUrl("adjudication-outcome"),
  /** Codes of the reissue-reason extension (`cancel` …). */
  reissueReason: codeSystemUrl("reissue-reason"),
  adjudication: codeSystemUrl("ksa-adjudication"),
  adjudicationReason: codeSystemUrl("adjudication-reason"),
  /** Errors the exchange returns (ClaimResponse.error, Task.output error, OperationOutcome details). */
  adjudicationError: codeSystemUrl("adjudication-error"),
  metaTags: codeSystemUrl("meta-tags"),
  visionEyeCodes: codeSystemUrl("vision-eye-codes"),
  visionProduct: codeSystemUrl("vision-product"),
} as const;

/** Licence identifier systems (`Identifier.system` of organizations, practitioners, locations). */
export const LICENSES = {
  provider: `${NPHIES_LICENSE_BASE}/provider-license`,
  payer: `${NPHIES_LICENSE_BASE}/payer-license`,
  practitioner: `${NPHIES_LICENSE_BASE}/practitioner-license`,
  location: `${NPHIES_LICENSE_BASE}/location-license`,
  /** The exchange itself, as the receiver of polls and payment notices. */
  nphies: `${NPHIES_LICENSE_BASE}/nphies`,
} as const;

/**
 * The patient's identity documents: the identifier type (HL7 v2-0203) and system the Patient
 * profile's identifier slices use, and the shape of the number where the guide fixes one.
 */
export const PATIENT_DOCUMENTS = {
  nationalId: { type: "NI", system: `${NPHIES_IDENTIFIER_BASE}/nationalid`, pattern: /^1\d{9}$/ },
  iqama: { type: "PRC", system: `${NPHIES_IDENTIFIER_BASE}/iqama`, pattern: /^2\d{9}$/ },
  passport: { type: "PPN", system: `${NPHIES_IDENTIFIER_BASE}/passportnumber`, pattern: /^[A-Za-z0-9]{3,20}$/ },
  borderNumber: { type: "BN", system: `${NPHIES_IDENTIFIER_BASE}/bordernumber`, pattern: /^\d{8,12}$/ },
} as const;
export type PatientDocument = keyof typeof PATIENT_DOCUMENTS;

export function patientDocumentOfType(typeCode: string | undefined): PatientDocument | undefined {
  return (Object.keys(PATIENT_DOCUMENTS) as PatientDocument[]).find((key) => PATIENT_DOCUMENTS[key].type === typeCode);
}

/** Claim subtypes (claim-subtype): inpatient, outpatient, emergency. */
export const CLAIM_SUBTYPES = ["ip", "op", "emr"] as const;
export type ClaimSubtype = (typeof CLAIM_SUBTYPES)[number];

/** Which subtypes each care setting takes. */
export const SUBTYPES_BY_CLAIM_TYPE: Readonly<Record<ClaimType, readonly ClaimSubtype[]>> = {
  // The guide's encounter table (9.19) bills an institutional claim for a stay only: an emergency visit is professional.
  institutional: ["ip"],
  professional: ["op", "emr"],
  oral: ["op"],
  pharmacy: ["op"],
  vision: ["op"],
};

/** The code systems an item's `productOrService` may come from, per care setting. */
export const ITEM_SYSTEMS_BY_CLAIM_TYPE: Readonly<Record<ClaimType, readonly string[]>> = {
  institutional: [SYSTEMS.services, SYSTEMS.procedures, SYSTEMS.imaging, SYSTEMS.laboratory, SYSTEMS.medicalDevices, SYSTEMS.medicationCodes, SYSTEMS.transportation, SYSTEMS.mohCategory],
  professional: [SYSTEMS.services, SYSTEMS.procedures, SYSTEMS.imaging, SYSTEMS.laboratory, SYSTEMS.medicalDevices, SYSTEMS.medicationCodes, SYSTEMS.transportation, SYSTEMS.mohCategory],
  oral: [SYSTEMS.oralHealthOp, SYSTEMS.oralHealthIp, SYSTEMS.imaging, SYSTEMS.medicationCodes],
  pharmacy: [SYSTEMS.medicationCodes, SYSTEMS.scientificCodes, SYSTEMS.medicalDevices],
  vision: [SYSTEMS.services, SYSTEMS.medicalDevices, SYSTEMS.visionProduct],
};

/**
 * An FDI tooth number (fdi-oral-region): permanent teeth 11–48, primary teeth 51–85 (quadrant then
 * position), what an oral claim line names in `item.bodySite`.
 */
export function isFdiToothCode(code: string): boolean {
  return /^(?:[1-4][1-8]|[5-8][1-5])$/.test(code);
}

/** First and last day a code may be billed (YYYY-MM-DD; open when absent). */
export interface CodeActivation {
  start?: string;
  end?: string;
}

/**
 * Activation periods of the demo catalogue's codes, by code system URL and code: the exchange
 * refuses an item whose code is not active on its service date (guide 3.5, p. 45; rule BV-90029,
 * docs/decisions/104). One list: the sandbox's catalogue reads it, the portal's catalogue may. A
 * clinic's import of a system brings its own periods.
 */
export const CODE_ACTIVATION: Readonly<Record<string, Readonly<Record<string, CodeActivation>>>> = {
  [SYSTEMS.services]: {
    // Telemedicine entered the exchange's service list with the 2021 catalogue.
    "SVC-0106": { start: "2021-01-01" },
    // The day-case arthroscopy package is billable from the 2025 catalogue on.
    "PKG-0502": { start: "2025-01-01" },
  },
  [SYSTEMS.laboratory]: {
    // The HbA1c test code of the 2024 catalogue.
    "LAB-4002": { start: "2024-01-01" },
  },
};

/** The activation period of a code, if the catalogue gives one. */
export function codeActivation(system: string, code: string): CodeActivation | undefined {
  return CODE_ACTIVATION[system]?.[code];
}

/** Diagnosis systems a claim may use. */
export const DIAGNOSIS_SYSTEMS: readonly string[] = [SYSTEMS.icd10am];

/** Diagnosis roles (the exchange's diagnosis-type; the codes HL7's ex-diagnosistype also has). */
export const DIAGNOSIS_TYPES = ["principal", "secondary", "admitting", "discharge", "differential"] as const;

/** Supporting-information categories (claim-information-category) the rules rely on. */
export const SUPPORTING_INFO_CATEGORIES = [
  "info",
  "onset",
  "attachment",
  "missingtooth",
  "hospitalized",
  "employmentImpacted",
  "lab-test",
  "reason-for-visit",
  "days-supply",
  "vital-sign-weight",
  "vital-sign-height",
  "vital-sign-systolic",
  "vital-sign-diastolic",
  "temperature",
  "pulse",
  "respiratory-rate",
  "oxygen-saturation",
  "birth-weight",
  "icu-hours",
  "ventilation-hours",
  "chief-complaint",
  "estimated-Length-of-Stay",
  "investigation-result",
  "treatment-plan",
  "patient-history",
  "physical-examination",
  "history-of-present-illness",
  "morphology",
  "admission-weight",
] as const;
export type SupportingInfoCategory = (typeof SUPPORTING_INFO_CATEGORIES)[number];

/**
 * Supporting information each care setting cannot do without, whatever its subtype and use (the
 * chief complaint, BV-00770; pharmacy: the days supply). What a subtype or use adds is in
 * `SUPPORTING_INFO_BY_SETTING`; `requiredSupportingInfo` gives both.
 */
export const REQUIRED_SUPPORTING_INFO: Readonly<Record<ClaimType, readonly SupportingInfoCategory[]>> = {
  institutional: ["chief-complaint"],
  professional: ["chief-complaint"],
  oral: ["chief-complaint"],
  pharmacy: ["days-supply"],
  vision: ["chief-complaint"],
};

/** The claim's use (Claim.use) as the rules of a care setting read it. */
type SettingUse = "claim" | "preauthorization";

/**
 * Supporting information a care setting requires only for some subtypes or uses, with the rule
 * that refuses its absence: an institutional prior authorization of an inpatient stay states the
 * estimated length of stay (BV-00802). Absent `subtype` / `use`: every subtype / use.
 */
export const SUPPORTING_INFO_BY_SETTING: readonly {
  type: ClaimType;
  subtype?: ClaimSubtype;
  use?: SettingUse;
  category: SupportingInfoCategory;
  /** The checker's rule for a request without it (its code the guide's: BV-00802). */
  rule: RuleId;
}[] = [{ type: "institutional", subtype: "ip", use: "preauthorization", category: "estimated-Length-of-Stay", rule: "estimatedStay" }];

/**
 * Every supporting-information category a claim or prior authorization of this care setting must
 * carry: the type's own (`REQUIRED_SUPPORTING_INFO`) and what its subtype and use add
 * (`SUPPORTING_INFO_BY_SETTING`). Without a subtype or use, only the type's own.
 */
export function requiredSupportingInfo(type: ClaimType, subtype?: string, use?: string): readonly SupportingInfoCategory[] {
  const extra = SUPPORTING_INFO_BY_SETTING.filter((r) => r.type === type && (r.subtype === undefined || r.subtype === subtype) && (r.use === undefined || r.use === use)).map((r) => r.category);
  return [...REQUIRED_SUPPORTING_INFO[type], ...extra.filter((c) => !REQUIRED_SUPPORTING_INFO[type].includes(c))];
}

/**
 * The estimated length of stay (supportingInfo `estimated-Length-of-Stay`): a valueQuantity in
 * whole days, UCUM `d`. The forms take 1 to 365 days.
 */
export const ESTIMATED_STAY_DAYS = { min: 1, max: 365 } as const;

/**
 * Whether a diagnosis was present on admission (diagnosis-on-admission), what every diagnosis of
 * an inpatient institutional claim or prior authorization states (BV-00027).
 */
export const DIAGNOSIS_ON_ADMISSION = {
  y: { en: "Yes", ar: "نعم" },
  n: { en: "No", ar: "لا" },
  u: { en: "Unknown", ar: "غير معروف" },
} as const;
export type DiagnosisOnAdmission = keyof typeof DIAGNOSIS_ON_ADMISSION;
export const DIAGNOSIS_ON_ADMISSION_CODES = ["y", "n", "u"] as const satisfies readonly DiagnosisOnAdmission[];

/** The care settings whose every diagnosis says whether it was present on admission (BV-00027). */
export const ON_ADMISSION_SETTINGS: readonly { type: ClaimType; subtype: ClaimSubtype }[] = [{ type: "institutional", subtype: "ip" }];

/** A claim or prior authorization of this setting states, per diagnosis, whether it was present on admission. */
export function requiresOnAdmission(type: ClaimType, subtype?: string): boolean {
  return ON_ADMISSION_SETTINGS.some((s) => s.type === type && s.subtype === subtype);
}

/** Encounter classes (v3-ActCode) by subtype: what an encounter of the claim must be (guide 9.19, p. 130: telemedicine VR is outpatient too). */
export const ENCOUNTER_CLASS_BY_SUBTYPE: Readonly<Record<ClaimSubtype, readonly string[]>> = {
  ip: ["IMP", "SS"],
  op: ["AMB", "HH", "VR"],
  emr: ["EMER"],
};

/** Coverage types (coverage-type) and beneficiary relationships (subscriber-relationship). */
export const COVERAGE_TYPES = ["EHCPOL", "PUBLICPOL"] as const;
export const SUBSCRIBER_RELATIONSHIPS = ["self", "spouse", "child", "parent", "common", "injured", "other"] as const;

/** Task codes (task-code) of the Tasks the provider sends. */
export const TASK_CODES = { poll: "poll", cancel: "cancel", status: "status" } as const;

/** Reasons for visit (visit-reason): `referral` marks the receiving facility's claim of a transfer of care (guide 7.3 step 4). */
export const VISIT_REASONS = ["new-visit", "follow-up", "refill", "walk-in", "referral"] as const;
export type VisitReason = (typeof VISIT_REASONS)[number];

/** Eligibility purposes (HL7 eligibilityrequest-purpose). */
export const ELIGIBILITY_REQUEST_PURPOSES = ["auth-requirements", "benefits", "discovery", "validation"] as const;

/** Site eligibility of a coverage at the requesting facility (site-eligibility). */
export const SITE_ELIGIBILITY = {
  eligible: { en: "In network at this site", ar: "ضمن الشبكة في هذا الموقع", inForce: true },
  "not-in-network": { en: "Out of network at this site", ar: "خارج الشبكة في هذا الموقع", inForce: false },
  "not-eligible": { en: "Not eligible at this site", ar: "غير مؤهل في هذا الموقع", inForce: false },
  // The guide's CodeSystem siteEligibility (what the sandbox answers; docs/decisions/071).
  "not-active": { en: "The member's policy is not active on the service date", ar: "بوليصة العضو غير سارية في تاريخ الخدمة", inForce: false },
  "out-network": { en: "The site is outside the member's network", ar: "الموقع خارج شبكة العضو", inForce: false },
  "not-covered": { en: "The policy does not cover the requested services", ar: "البوليصة لا تغطي الخدمات المطلوبة", inForce: false },
  "coverage-suspended": { en: "The member's coverage is suspended", ar: "تغطية العضو معلقة", inForce: false },
  "provider-contract-suspended": { en: "The provider's contract is suspended", ar: "تعاقد مقدم الخدمة معلق", inForce: false },
} as const;
export type SiteEligibilityCode = keyof typeof SITE_ELIGIBILITY;

/**
 * The five families into which the exchange sorts every rejection reason
 * (adjudication-reason codes such as `CV-1-1` start with the family).
 */
export const REJECTION_FAMILIES = {
  AD: { en: "Administrative", ar: "إدارية" },
  CV: { en: "Coverage", ar: "التغطية" },
  MN: { en: "Medical necessity", ar: "الضرورة الطبية" },
  SE: { en: "Supporting evidence", ar: "المستندات الداعمة" },
  BE: { en: "Billing error", ar: "أخطاء الفوترة" },
} as const;
export type RejectionFamily = keyof typeof REJECTION_FAMILIES;

/** The family of a reason code (`MN-1-2` → `MN`), or undefined for a payer's own code. */
export function rejectionFamilyOf(code: string): RejectionFamily | undefined {
  const prefix = code.slice(0, 2).toUpperCase();
  return Object.prototype.hasOwnProperty.call(REJECTION_FAMILIES, prefix) && /^[A-Za-z]{2}[-_]/.test(code) ? (prefix as RejectionFamily) : undefined;
}

/**
 * Words for the exchange's common adjudication-reason codes (CodeSystem adjudication-reason of the
 * implementation guide, English display and Arabic designation), per family. Not the whole code
 * system: codes missing here still classify by their family prefix (rejectionFamilyOf) and show as
 * given (decision 076).
 */
export const REJECTION_REASONS: Readonly<Record<string, { en: string; ar: string }>> = {
  "AD-1-4": { en: "Diagnosis is inconsistent with service/procedure", ar: "التشخيص غير متسق مع الخدمة/الإجراء" },
  "AD-1-7": { en: "Service/procedure is inconsistent with encounter type", ar: "الخدمة/الإجراء غير متسقة مع نوع اللقاء الطبي" },
  "AD-2-1": { en: "Date of birth follows date of service/procedure", ar: "تاريخ الولادة يعقب تاريخ الخدمة/الإجراء" },
  "AD-2-6": { en: "Service was performed outside authorization validity date", ar: "نُفذت الخدمة خارج فترة صلاحية الموافقة المسبقة" },
  "AD-3-5": { en: "Diagnosis is inconsistent with patient's age", ar: "التشخيص غير متسق مع عمر المريض" },
  "CV-4-3": { en: "Authorization quantity exceeds prescription quantity", ar: "الكمية المدرجة للموافقة المسبقة تتجاوز الكمية المحددة في الوصفة الطبية" },
  "CV-4-4": { en: "Prescription out of date", ar: "وصفة طبية منتهية الصلاحية" },
  "CV-4-5": { en: "Medication is not listed in formulary", ar: "الدواء غير مدرج في لائحة الأدوية المعتمدة" },
  "MN-1-1": {
    en: "Service is not clinically justified based on clinical practice guideline, without additional supporting diagnosis",
    ar: "الخدمة غير مبررة سريرياً وفق دليل الممارسة السريرية دون تشخيص داعم إضافي",
  },
  "SE-1-1": { en: "Vital signs are inadequate or missing", ar: "العلامات الحيوية غير كافية أو مفقودة" },
  "BE-1-1": { en: "Co-pay was not collected from member", ar: "لم يتم تحصيل المشاركة المالية (التحمل) من العضو" },
  "BE-1-2": { en: "Service was not performed", ar: "لم يتم تنفيذ الخدمة" },
  "BE-1-10": { en: "Fraud", ar: "احتيال" },
};

/**
 * The portal's own pre-submission edit codes (docs/decisions/090): what the claim scrubber finds
 * before a message leaves, where the guide's adjudication-reason code system has no code we could
 * confirm. Shaped `<family>-P-<n>` so `rejectionFamilyOf` classifies them like the exchange's own,
 * and never mistaken for one (the guide's codes have a digit after the family).
 */
export const SCRUBBER_REASONS: Readonly<Record<string, { en: string; ar: string }>> = {
  "CV-P-1": { en: "Coverage is not in force on the date of service", ar: "التغطية غير سارية في تاريخ الخدمة" },
  "CV-P-2": { en: "Service is not covered: the plan excludes it", ar: "الخدمة غير مشمولة: الخطة تستثنيها" },
  "CV-P-3": { en: "Eligibility could not be confirmed before sending", ar: "تعذّر تأكيد الأهلية قبل الإرسال" },
  "AD-P-1": { en: "Prior authorization is required and none is referenced", ar: "الموافقة المسبقة مطلوبة ولم يُشر إلى أي موافقة" },
  "AD-P-2": { en: "The referenced authorization is for another service", ar: "الموافقة المشار إليها لخدمة أخرى" },
  "AD-P-3": { en: "The authorization's approved quantity is used up", ar: "استُنفدت الكمية المعتمدة في الموافقة" },
  "AD-P-4": { en: "Service is inconsistent with the patient's age or gender", ar: "الخدمة غير متسقة مع عمر المريض أو جنسه" },
  "AD-P-5": { en: "Diagnosis is inconsistent with the patient's gender", ar: "التشخيص غير متسق مع جنس المريض" },
  "AD-P-6": { en: "Claim is outside the payer's filing window", ar: "المطالبة خارج مهلة التقديم لدى الجهة الدافعة" },
  "AD-P-7": { en: "Message exceeds the exchange's size limit", ar: "الرسالة تتجاوز الحد الأقصى لحجم الرسائل في منصة التبادل" },
  "AD-P-8": { en: "An offline approval's date without its reference", ar: "تاريخ موافقة دون اتصال بلا مرجعها" },
  "AD-P-9": { en: "An offline approval dated after the service", ar: "موافقة دون اتصال مؤرخة بعد الخدمة" },
  "BE-P-1": { en: "Service already claimed for this patient on this day", ar: "سبقت المطالبة بالخدمة لهذا المريض في اليوم نفسه" },
  "BE-P-2": { en: "Price differs from the contract price", ar: "السعر يختلف عن سعر العقد" },
  "BE-P-3": { en: "No contract price for the service on its date", ar: "لا يوجد سعر عقد للخدمة في تاريخها" },
  "SE-P-1": { en: "Supporting information the claim type requires is missing", ar: "المعلومات الداعمة التي يتطلبها نوع المطالبة مفقودة" },
};
