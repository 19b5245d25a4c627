import { CODE_SYSTEMS, MDS_LIST_SYSTEMS, SYSTEMS, type MdsListKey } from "@/lib/fhir/browser";

/**
 * The code systems the catalogue holds (docs/decisions/086): the exchange's service, procedure,
 * oral-health, medication (GTIN and scientific name), device, imaging, laboratory, transport,
 * ministry-category and vision-product systems, ICD-10-AM for diagnoses, and the
 * CPT subset the spec's forms use. URLs come from the rule module (lib/fhir/nphies SYSTEMS) and
 * lib/fhir's CODE_SYSTEMS — never typed here. `key` is the short name the CLI and Settings accept.
 */
export const CATALOGUE_SYSTEMS = [
  { key: "services", url: SYSTEMS.services, en: "Services", ar: "الخدمات" },
  { key: "procedures", url: SYSTEMS.procedures, en: "Procedures", ar: "الإجراءات" },
  { key: "oral-health-op", url: SYSTEMS.oralHealthOp, en: "Oral health, outpatient", ar: "صحة الفم، العيادات الخارجية" },
  { key: "oral-health-ip", url: SYSTEMS.oralHealthIp, en: "Oral health, inpatient", ar: "صحة الفم، التنويم" },
  { key: "medication-codes", url: SYSTEMS.medicationCodes, en: "Medications (GTIN)", ar: "الأدوية (GTIN)" },
  { key: "imaging", url: SYSTEMS.imaging, en: "Imaging", ar: "الأشعة" },
  { key: "laboratory", url: SYSTEMS.laboratory, en: "Laboratory", ar: "المختبر" },
  { key: "scientific-codes", url: SYSTEMS.scientificCodes, en: "Medicines by scientific name", ar: "الأدوية بالاسم العلمي" },
  { key: "medical-devices", url: SYSTEMS.medicalDevices, en: "Medical devices", ar: "الأجهزة الطبية" },
  { key: "transportation-srca", url: SYSTEMS.transportation, en: "Ambulance transport", ar: "النقل الإسعافي" },
  { key: "moh-category", url: SYSTEMS.mohCategory, en: "Ministry of Health categories", ar: "فئات وزارة الصحة" },
  { key: "vision-product", url: SYSTEMS.visionProduct, en: "Vision products", ar: "منتجات البصريات" },
  { key: "icd-10-am", url: SYSTEMS.icd10am, en: "Diagnoses (ICD-10-AM)", ar: "التشخيصات (ICD-10-AM)" },
  { key: "cpt", url: CODE_SYSTEMS.cpt, en: "Procedures (CPT)", ar: "الإجراءات (CPT)" },
  { key: "specialties", url: SYSTEMS.practiceCodes, en: "Practitioner specialties", ar: "تخصصات الممارسين" },
  // The Minimum Data Set's value sets (docs/decisions/118): what the visit details offer and accept.
  ...(Object.keys(MDS_LIST_SYSTEMS) as MdsListKey[]).map((key) => ({ key, ...MDS_LIST_SYSTEMS[key] })),
] as const;

export type CatalogueSystem = (typeof CATALOGUE_SYSTEMS)[number];
export type CatalogueSystemKey = CatalogueSystem["key"];

/** The catalogue system named by its key or its URL (as the CLI, Settings and the picker give it). */
export function catalogueSystem(keyOrUrl: string): CatalogueSystem | undefined {
  const given = keyOrUrl.trim();
  return CATALOGUE_SYSTEMS.find((s) => s.key === given.toLowerCase() || s.url === given);
}

/** The URL of a catalogue system's key (a typo is a compile error). */
export function systemUrl(key: CatalogueSystemKey): string {
  return CATALOGUE_SYSTEMS.find((s) => s.key === key)!.url;
}
