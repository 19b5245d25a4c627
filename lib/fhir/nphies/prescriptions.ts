/**
 * Prescription verification (guide 7.11 "Prescription Verification (Predetermination)", Table 39,
 * data model 9.6/9.7): the small code lists the portal writes and the sandbox reads. The guide
 * names the extensions (Table 10: absence-of-scientific-code, pharmacist-Selection-Reason,
 * pharmacist-substitute) without printing their codes; these lists are ours (docs/decisions/116).
 */

/** Why a prescribed line names a GTIN rather than a scientific code (extension-absence-of-scientific-code). */
export const ABSENCE_OF_SCIENTIFIC_CODE = {
  "no-scientific-code": { en: "The medicine has no scientific code", ar: "لا يوجد رمز علمي لهذا الدواء" },
  "brand-required": { en: "The patient needs this brand", ar: "يحتاج المريض إلى هذه العلامة التجارية" },
  "combination-product": { en: "A combination product", ar: "مستحضر مركّب" },
} as const;
export type AbsenceOfScientificCode = keyof typeof ABSENCE_OF_SCIENTIFIC_CODE;
export const ABSENCE_OF_SCIENTIFIC_CODE_CODES = Object.keys(ABSENCE_OF_SCIENTIFIC_CODE) as AbsenceOfScientificCode[];

/** Why the pharmacist dispensed another medicine than the one prescribed (extension-pharmacist-Selection-Reason). */
export const PHARMACIST_SELECTION_REASONS = {
  "out-of-stock": { en: "The prescribed medicine was out of stock", ar: "الدواء الموصوف غير متوفر" },
  "generic-substitute": { en: "A generic of the same medicine", ar: "بديل جنيس للدواء نفسه" },
  "patient-request": { en: "The patient asked for it", ar: "بطلب من المريض" },
  "formulary": { en: "The payer's formulary", ar: "قائمة الأدوية المعتمدة لدى الجهة الدافعة" },
} as const;
export type PharmacistSelectionReason = keyof typeof PHARMACIST_SELECTION_REASONS;
export const PHARMACIST_SELECTION_REASON_CODES = Object.keys(PHARMACIST_SELECTION_REASONS) as PharmacistSelectionReason[];

/** What the substitute is (extension-pharmacist-substitute). */
export const PHARMACIST_SUBSTITUTES = {
  generic: { en: "Generic equivalent", ar: "مكافئ جنيس" },
  therapeutic: { en: "Therapeutic alternative", ar: "بديل علاجي" },
  "other-strength": { en: "Same medicine, other strength or pack", ar: "الدواء نفسه بتركيز أو عبوة أخرى" },
} as const;
export type PharmacistSubstitute = keyof typeof PHARMACIST_SUBSTITUTES;
export const PHARMACIST_SUBSTITUTE_CODES = Object.keys(PHARMACIST_SUBSTITUTES) as PharmacistSubstitute[];

/** The adjudication category a payer answers the approved refills in (guide 7.11 point 3, Table 39). */
export const APPROVED_REFILL_CATEGORY = "approved-refill";

/** How often a dose is taken: times per period (MedicationRequest.dosageInstruction.timing.repeat). */
export const DOSE_FREQUENCIES = {
  "1/d": { frequency: 1, period: 1, periodUnit: "d", en: "Once a day", ar: "مرة يومياً" },
  "2/d": { frequency: 2, period: 1, periodUnit: "d", en: "Twice a day", ar: "مرتان يومياً" },
  "3/d": { frequency: 3, period: 1, periodUnit: "d", en: "Three times a day", ar: "ثلاث مرات يومياً" },
  "4/d": { frequency: 4, period: 1, periodUnit: "d", en: "Four times a day", ar: "أربع مرات يومياً" },
  "1/wk": { frequency: 1, period: 1, periodUnit: "wk", en: "Once a week", ar: "مرة أسبوعياً" },
} as const;
export type DoseFrequency = keyof typeof DOSE_FREQUENCIES;
export const DOSE_FREQUENCY_CODES = Object.keys(DOSE_FREQUENCIES) as DoseFrequency[];

/** The most refills a prescription may ask for (the portal's bound; the payer decides what it approves). */
export const MAX_REQUESTED_REFILLS = 12;
