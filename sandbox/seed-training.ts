import type { BenefitCategoryCode } from "../lib/fhir";
import type { AnnualLimits, BenefitLine, CoverageDef, PatientDef } from "./reference-data";

/**
 * Training seed beside the original identities (which the browser tests and docs/decisions/010
 * depend on, unchanged): patients known by national ID, Iqama and passport; coverages of several
 * classes, payers and periods (last year, this year, next year); payer networks the clinic is in or
 * out of; practitioners with licences. All names and numbers are fictional; the ID numbers pass the
 * check digit. Amounts are integer halalas.
 */

const SAR = (riyals: number) => riyals * 100;

/** Patient share (copay %) per coverage class: the payer's class table (docs/decisions/071). */
export const COVERAGE_CLASS_SHARE: Readonly<Record<string, number>> = { VIP: 0, A: 10, B: 20, C: 30 };

/** Annual deductible and out-of-pocket maximum per coverage class (docs/decisions/091): the cheaper classes have them. */
export const COVERAGE_CLASS_ANNUAL: Readonly<Record<string, AnnualLimits>> = {
  B: { deductible: SAR(300), outOfPocketMax: SAR(3_000) },
  C: { deductible: SAR(50), outOfPocketMax: SAR(500) },
};

const ALL_CATEGORIES: readonly { category: BenefitCategoryCode; riyals: number }[] = [
  { category: "1", riyals: 50_000 },
  { category: "2", riyals: 80_000 },
  { category: "3", riyals: 5_000 },
  { category: "4", riyals: 6_000 },
  { category: "5", riyals: 6_000 },
  { category: "23", riyals: 2_000 },
  { category: "24", riyals: 2_000 },
  { category: "25", riyals: 3_000 },
  { category: "26", riyals: 4_000 },
  { category: "28", riyals: 6_000 },
  { category: "35", riyals: 3_000 },
  { category: "36", riyals: 5_000 },
  { category: "49", riyals: 20_000 },
  { category: "62", riyals: 8_000 },
  { category: "69", riyals: 15_000 },
  { category: "F6", riyals: 1_500 },
];

/** A class's benefit schedule: every category, the class's patient share; `scale` for cheaper plans. */
function classBenefits(coverageClass: string, scale = 1, except: readonly BenefitCategoryCode[] = []): BenefitLine[] {
  const share = COVERAGE_CLASS_SHARE[coverageClass];
  if (share === undefined) throw new Error(`no patient share for class ${coverageClass}`);
  return ALL_CATEGORIES.filter((c) => !except.includes(c.category)).map((c) => ({ category: c.category, allowed: Math.round(SAR(c.riyals) * scale), used: 0, copayPercent: share }));
}

export const TRAINING_PATIENTS: readonly PatientDef[] = [
  {
    id: "1055512345",
    kind: "citizen",
    name: { en: "Faisal Al-Training", ar: "فيصل التدريبي" },
    birthDate: "1983-02-17",
    gender: "male",
    scenario: "Citizen. Coverage last year (Rimal, class A) and next year (Wadi, class B), none this year: eligibility answers by the requested period.",
    documents: [{ kind: "national-id", value: "1055512345" }],
  },
  {
    id: "2176543219",
    kind: "resident",
    name: { en: "Maria Resident", ar: "ماريا المقيمة" },
    birthDate: "1991-09-03",
    gender: "female",
    scenario: "Resident (Iqama). Wadi class B in force, in a restricted network the clinic is not part of: site eligibility out-network.",
    documents: [{ kind: "iqama", value: "2176543219" }],
  },
  {
    id: "2456789011",
    kind: "resident",
    name: { en: "Ahmed Dental", ar: "أحمد الأسنان" },
    birthDate: "1986-04-12",
    gender: "male",
    scenario: "Resident (Iqama). Rimal class VIP in force: dental, pharmacy, vision, professional and institutional claims, no patient share.",
    documents: [{ kind: "iqama", value: "2456789011" }],
  },
  {
    id: "1087654321",
    kind: "citizen",
    name: { en: "Sara Pharmacy", ar: "سارة الصيدلية" },
    birthDate: "1970-06-30",
    gender: "female",
    scenario: "Citizen. Nakheel class C in force (30 % patient share): pharmacy limits and packages.",
    documents: [{ kind: "national-id", value: "1087654321" }],
  },
  {
    id: "VISITOR-A4815162",
    kind: "resident",
    name: { en: "John Visitor", ar: "جون الزائر" },
    birthDate: "1995-01-25",
    gender: "male",
    scenario: "Visitor known by passport A4815162. Nakheel visit-visa cover, class C, in force.",
    documents: [{ kind: "passport", value: "A4815162" }],
  },
  {
    id: "1066612340",
    kind: "citizen",
    name: { en: "Amal Mother", ar: "أمل الأم" },
    birthDate: "1994-08-19",
    gender: "female",
    scenario: "Citizen. Rimal class A in force; her newborn 1077712345 is checked and billed under this coverage (extension-newborn).",
    documents: [{ kind: "national-id", value: "1066612340" }],
  },
  {
    id: "1077712345",
    kind: "citizen",
    name: { en: "Baby of Amal", ar: "مولود أمل" },
    // Informational (no rule reads the seed's birth dates): a request states the newborn's birth date in its Patient.
    birthDate: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
    gender: "female",
    scenario: "Newborn of 1066612340, no coverage of her own: covered under her mother's Rimal coverage (RML-55600) for 30 days from birth.",
    documents: [{ kind: "national-id", value: "1077712345" }],
  },
];

export const TRAINING_COVERAGES: readonly CoverageDef[] = [
  { id: "cov-1055512345-past", patientId: "1055512345", payerId: "payer-rimal", plan: "Gold", coverageClass: "A", period: "lapsed", memberId: "RML-55100", benefits: classBenefits("A") },
  { id: "cov-1055512345-next", patientId: "1055512345", payerId: "payer-wadi", plan: "Silver", coverageClass: "B", period: "future", memberId: "WDI-55101", benefits: classBenefits("B", 0.6) },
  { id: "cov-2176543219", patientId: "2176543219", payerId: "payer-wadi", plan: "Restricted", coverageClass: "B", period: "current", memberId: "WDI-55200", network: "wadi-restricted", benefits: classBenefits("B", 0.5) },
  { id: "cov-2456789011", patientId: "2456789011", payerId: "payer-rimal", plan: "Platinum", coverageClass: "VIP", period: "current", memberId: "RML-55300", benefits: classBenefits("VIP", 2) },
  { id: "cov-1087654321", patientId: "1087654321", payerId: "payer-nakheel", plan: "Basic", coverageClass: "C", period: "current", memberId: "NKL-55400", benefits: classBenefits("C", 0.8) },
  { id: "cov-1066612340", patientId: "1066612340", payerId: "payer-rimal", plan: "Gold", coverageClass: "A", period: "current", memberId: "RML-55600", benefits: classBenefits("A") },
  { id: "cov-visitor-a4815162", patientId: "VISITOR-A4815162", payerId: "payer-nakheel", plan: "Visit visa", coverageClass: "C", period: "current", memberId: "NKL-V-55500", benefits: classBenefits("C", 0.5, ["23", "24", "25", "26", "28", "35", "36", "F6"]) },
];

/** Provider licences in each named network (coverages without a network accept every provider). */
export const NETWORKS: Readonly<Record<string, readonly string[]>> = {
  "wadi-restricted": ["PR-WADI-HOSPITAL-01", "PR-WADI-CLINIC-02"],
};

export interface PractitionerDef {
  license: string;
  name: string;
  speciality: string;
}

/** Licensed practitioners the sandbox knows (Practitioner.identifier, practitioner-license). */
export const PRACTITIONERS: readonly PractitionerDef[] = [
  { license: "PRAC-10001", name: "Dr. Layla Example", speciality: "General practice" },
  { license: "PRAC-10002", name: "Dr. Khalid Sample", speciality: "Dentistry" },
  { license: "PRAC-10003", name: "Dr. Mona Placeholder", speciality: "Ophthalmology" },
  { license: "PRAC-10004", name: "Pharm. Yousef Demo", speciality: "Pharmacy" },
  { license: "PRAC-10005", name: "Dr. Hana Fictional", speciality: "Obstetrics" },
];
