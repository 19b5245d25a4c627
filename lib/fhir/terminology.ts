import type { BenefitCategoryCode, BilingualDisplay } from "./systems";

/**
 * The curated CPT and ICD-10-AM subsets the portal offers in its pickers and the sandbox accepts
 * and prices — ONE list, shared by both (the sandbox imports it from lib/fhir).
 *
 * CPT® descriptors (AMA) and ICD-10-AM descriptors (IHACPA) are licensed: every description here
 * is our own short wording in English and Arabic, never the licensed descriptor text. A real
 * deployment imports the licensed code sets under its own licence.
 */

export interface TerminologyEntry {
  code: string;
  /** Our own short description (not the licensed descriptor). */
  display: BilingualDisplay;
}

export interface ProcedureEntry extends TerminologyEntry {
  /** Benefit category the service is paid from. */
  category: BenefitCategoryCode;
}

const proc = (code: string, en: string, ar: string, category: BenefitCategoryCode): ProcedureEntry => ({
  code,
  display: { en, ar },
  category,
});

/** Curated CPT subset (procedures and services). */
export const CPT_CODES: readonly ProcedureEntry[] = [
  /* @__PURE__ */ proc("99202", "Clinic visit, new patient, short", "زيارة عيادة لمريض جديد، قصيرة", "3"),
  /* @__PURE__ */ proc("99203", "Clinic visit, new patient, standard", "زيارة عيادة لمريض جديد، عادية", "3"),
  /* @__PURE__ */ proc("99213", "Clinic visit, returning patient, standard", "زيارة عيادة لمريض مراجع، عادية", "3"),
  /* @__PURE__ */ proc("99214", "Clinic visit, returning patient, extended", "زيارة عيادة لمريض مراجع، مطوّلة", "3"),
  /* @__PURE__ */ proc("36415", "Blood sample from a vein", "سحب عينة دم من الوريد", "5"),
  /* @__PURE__ */ proc("81001", "Urine test with microscopy", "تحليل بول مع فحص مجهري", "5"),
  /* @__PURE__ */ proc("85025", "Full blood count", "صورة دم كاملة", "5"),
  /* @__PURE__ */ proc("80053", "Blood chemistry panel, extended", "لوحة كيمياء الدم الموسّعة", "5"),
  /* @__PURE__ */ proc("83036", "Long-term blood sugar marker (HbA1c)", "السكر التراكمي (HbA1c)", "5"),
  /* @__PURE__ */ proc("71046", "Chest X-ray, two views", "أشعة سينية للصدر، منظران", "4"),
  /* @__PURE__ */ proc("73030", "Shoulder X-ray", "أشعة سينية للكتف", "4"),
  /* @__PURE__ */ proc("96372", "Injection under the skin or into a muscle", "حقنة تحت الجلد أو في العضل", "1"),
  /* @__PURE__ */ proc("12001", "Stitching of a small simple wound", "خياطة جرح بسيط صغير", "1"),
  /* @__PURE__ */ proc("92004", "Full eye examination, new patient", "فحص شامل للعين لمريض جديد", "F6"),
  /* @__PURE__ */ proc("70553", "Brain MRI, with and without contrast", "رنين مغناطيسي للدماغ بصبغة وبدونها", "62"),
  /* @__PURE__ */ proc("72148", "Lower back MRI, without contrast", "رنين مغناطيسي لأسفل الظهر بدون صبغة", "62"),
  /* @__PURE__ */ proc("29881", "Knee keyhole surgery on the meniscus", "منظار الركبة لعلاج الغضروف الهلالي", "2"),
  /* @__PURE__ */ proc("47562", "Keyhole gallbladder removal", "استئصال المرارة بالمنظار", "2"),
  /* @__PURE__ */ proc("59400", "Pregnancy care and delivery package", "باقة متابعة الحمل والولادة", "69"),
  /* @__PURE__ */ proc("15823", "Upper eyelid lift (cosmetic)", "رفع الجفن العلوي (تجميلي)", "2"),
  /* @__PURE__ */ proc("58970", "Egg retrieval for IVF", "سحب البويضات لأطفال الأنابيب", "61"),
];

const diag = (code: string, en: string, ar: string): TerminologyEntry => ({ code, display: { en, ar } });

/** Curated ICD-10-AM subset (diagnoses). */
export const ICD10AM_CODES: readonly TerminologyEntry[] = [
  /* @__PURE__ */ diag("J06.9", "Upper airway infection, unspecified", "التهاب المجاري التنفسية العليا، غير محدد"),
  /* @__PURE__ */ diag("J18.9", "Chest infection (pneumonia), unspecified", "التهاب رئوي، غير محدد"),
  /* @__PURE__ */ diag("E11.9", "Type 2 diabetes without complications", "السكري من النوع الثاني دون مضاعفات"),
  /* @__PURE__ */ diag("I10", "High blood pressure", "ارتفاع ضغط الدم"),
  /* @__PURE__ */ diag("M54.5", "Low back pain", "ألم أسفل الظهر"),
  /* @__PURE__ */ diag("M23.2", "Knee meniscus problem", "اعتلال الغضروف الهلالي في الركبة"),
  /* @__PURE__ */ diag("K80.2", "Gallstones without inflammation", "حصوات المرارة دون التهاب"),
  /* @__PURE__ */ diag("R51", "Headache", "صداع"),
  /* @__PURE__ */ diag("S61.0", "Open wound of a finger", "جرح مفتوح في الإصبع"),
  /* @__PURE__ */ diag("Z34.9", "Routine pregnancy check", "متابعة حمل روتينية"),
  /* @__PURE__ */ diag("H52.1", "Short-sightedness", "قصر النظر"),
  /* @__PURE__ */ diag("N97.9", "Female infertility, unspecified", "عقم عند الأنثى، غير محدد"),
  /* @__PURE__ */ diag("H02.8", "Other eyelid condition", "حالات أخرى في الجفن"),
  /* @__PURE__ */ diag("A09.0", "Stomach and bowel infection", "التهاب المعدة والأمعاء"),
  /* @__PURE__ */ diag("B34.9", "Viral infection, unspecified", "عدوى فيروسية، غير محددة"),
  /* @__PURE__ */ diag("D50.9", "Iron deficiency anaemia", "فقر الدم بنقص الحديد"),
  /* @__PURE__ */ diag("E03.9", "Underactive thyroid", "قصور الغدة الدرقية"),
  /* @__PURE__ */ diag("E55.9", "Vitamin D deficiency", "نقص فيتامين د"),
  /* @__PURE__ */ diag("E78.5", "High blood fats", "ارتفاع دهون الدم"),
  /* @__PURE__ */ diag("F41.1", "Generalised anxiety", "القلق العام"),
  /* @__PURE__ */ diag("H10.9", "Pink eye (conjunctivitis)", "التهاب الملتحمة"),
  /* @__PURE__ */ diag("H66.9", "Middle ear infection", "التهاب الأذن الوسطى"),
  /* @__PURE__ */ diag("J02.9", "Sore throat", "التهاب الحلق"),
  /* @__PURE__ */ diag("J45.9", "Asthma", "الربو"),
  /* @__PURE__ */ diag("K02.9", "Tooth decay", "تسوس الأسنان"),
  /* @__PURE__ */ diag("K21.9", "Acid reflux", "ارتجاع المريء"),
  /* @__PURE__ */ diag("K35.8", "Acute appendicitis", "التهاب الزائدة الحاد"),
  /* @__PURE__ */ diag("L20.9", "Eczema", "الأكزيما"),
  /* @__PURE__ */ diag("M17.9", "Knee osteoarthritis", "خشونة الركبة"),
  /* @__PURE__ */ diag("N39.0", "Urinary tract infection", "التهاب المسالك البولية"),
  /* @__PURE__ */ diag("R10.4", "Abdominal pain", "ألم في البطن"),
  /* @__PURE__ */ diag("R50.9", "Fever", "حمى"),
  /* @__PURE__ */ diag("S93.4", "Ankle sprain", "التواء الكاحل"),
];

export type TerminologyKind = "cpt" | "icd10am";

export const TERMINOLOGIES: Readonly<Record<TerminologyKind, readonly TerminologyEntry[]>> = {
  cpt: CPT_CODES,
  icd10am: ICD10AM_CODES,
};

// Built on first use, not at load: a page that imports lib/fhir/browser for something else does not
// carry the curated lists (the bundler drops them when nothing reads them; docs/decisions/055).
let byCodeIndex: Record<TerminologyKind, Map<string, TerminologyEntry>> | undefined;
const byCode = () =>
  (byCodeIndex ??= {
    cpt: new Map(CPT_CODES.map((e) => [e.code, e])),
    icd10am: new Map(ICD10AM_CODES.map((e) => [e.code, e])),
  });

export function findCode(kind: TerminologyKind, code: string): TerminologyEntry | undefined {
  return byCode()[kind].get(code);
}

export function isCptCode(code: string): boolean {
  return byCode().cpt.has(code);
}

export function isIcd10amCode(code: string): boolean {
  return byCode().icd10am.has(code);
}

/** Lower-case, Arabic diacritics and tatweel removed, alef/yaa/taa-marbuta forms folded. */
function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u064B-\u0652\u0640]/g, "")
    .replace(/[أإآ]/g, "ا")
    .replace(/ى/g, "ي")
    .replace(/ة/g, "ه");
}

/**
 * Finds codes by code (prefix, dot optional: "m545" finds M54.5) or by words (every word must
 * start a word of the English or Arabic description — or, from three letters, appear inside one,
 * which finds Arabic words behind their article). Code matches come first.
 */
export function searchTerminology(kind: TerminologyKind, query: string, limit = 20): TerminologyEntry[] {
  const list = TERMINOLOGIES[kind];
  const q = fold(query.trim());
  if (!q) return list.slice(0, limit);
  const compact = q.replace(/[\s.]/g, "");
  const byCodeMatch = list.filter((e) => fold(e.code).replace(/\./g, "").startsWith(compact));
  const words = q.split(/\s+/).filter(Boolean);
  const byWords = list.filter((e) => {
    if (byCodeMatch.includes(e)) return false;
    const haystack = `${fold(e.display.en)} ${fold(e.display.ar)}`.split(/[\s,()/-]+/).filter(Boolean);
    return words.every((w) => haystack.some((h) => h.startsWith(w) || (w.length >= 3 && h.includes(w))));
  });
  return [...byCodeMatch, ...byWords].slice(0, limit);
}
