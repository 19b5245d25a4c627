import { codeSystemUrl } from "./canonical";

/**
 * The value sets of the Minimum Data Set a clinic may replace with the exchange's own lists
 * (Settings → Terminology, the admin CLI): the key the catalogue knows each by, the system its
 * codes are sent in and its name. Names only — the demo entries are in `mds.ts` — so the
 * catalogue's system list stays light in the browser (docs/decisions/118). The vital signs'
 * absence reasons are one value set per sign, as the exchange publishes them (Table 35).
 */
export const MDS_LIST_SYSTEMS = {
  "service-event-type": { url: codeSystemUrl("service-event-type"), en: "Visit kinds (service event type)", ar: "أنواع الزيارة" },
  "triage-category": { url: codeSystemUrl("triage-category"), en: "Triage categories", ar: "فئات الفرز" },
  "emergency-arrival-code": { url: codeSystemUrl("emergency-arrival-code"), en: "Emergency arrival", ar: "طريقة الوصول إلى الطوارئ" },
  "emergency-department-disposition": { url: codeSystemUrl("emergency-department-disposition"), en: "Emergency department disposition", ar: "مآل مريض الطوارئ" },
  "admit-source": { url: codeSystemUrl("admit-source"), en: "Admit sources", ar: "مصادر التنويم" },
  "discharge-disposition": { url: codeSystemUrl("discharge-disposition"), en: "Discharge dispositions", ar: "حالات الخروج" },
  "condition-onset": { url: codeSystemUrl("condition-onset"), en: "Condition onset", ar: "بداية الحالة" },
  "investigation-result": { url: codeSystemUrl("investigation-result"), en: "Investigation results", ar: "نتائج الفحوص" },
  "morphology-code": { url: codeSystemUrl("morphology-code"), en: "Tumour morphology", ar: "شكل الورم" },
  "weight-absence-reason": { url: codeSystemUrl("weight-absence-reason"), en: "Why no weight", ar: "سبب عدم قياس الوزن" },
  "height-absence-reason": { url: codeSystemUrl("height-absence-reason"), en: "Why no height", ar: "سبب عدم قياس الطول" },
  "blood-pressure-absence-reason": { url: codeSystemUrl("blood-pressure-absence-reason"), en: "Why no blood pressure", ar: "سبب عدم قياس الضغط" },
  "temperature-absence-reason": { url: codeSystemUrl("temperature-absence-reason"), en: "Why no temperature", ar: "سبب عدم قياس الحرارة" },
  "pulse-absence-reason": { url: codeSystemUrl("pulse-absence-reason"), en: "Why no pulse", ar: "سبب عدم قياس النبض" },
  "respiratory-rate-absence-reason": { url: codeSystemUrl("respiratory-rate-absence-reason"), en: "Why no respiratory rate", ar: "سبب عدم قياس معدل التنفس" },
  "oxygen-saturation-absence-reason": { url: codeSystemUrl("oxygen-saturation-absence-reason"), en: "Why no oxygen saturation", ar: "سبب عدم قياس تشبع الأكسجين" },
  occupation: { url: codeSystemUrl("occupation"), en: "Occupations", ar: "المهن" },
  religion: { url: codeSystemUrl("religion"), en: "Religions", ar: "الديانات" },
} as const satisfies Record<string, { url: string; en: string; ar: string }>;
export type MdsListKey = keyof typeof MDS_LIST_SYSTEMS;
