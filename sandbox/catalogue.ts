import { benefitCategoryOf, CODE_SYSTEMS, isExcludedService, nphies, type BenefitCategoryCode } from "../lib/fhir";

/** The exchange's product code systems the sandbox prices (their URLs: lib/fhir/nphies). */
export const PRODUCT_SYSTEMS = [
  "services",
  "procedures",
  "oralHealthOp",
  "oralHealthIp",
  "medicationCodes",
  "scientificCodes",
  "medicalDevices",
  "transportation",
  "mohCategory",
  "visionProduct",
  "imaging",
  "laboratory",
] as const;
export type ProductSystem = (typeof PRODUCT_SYSTEMS)[number];

/**
 * The sandbox payers' price list per code system: the exchange's own systems (services,
 * procedures, oral health, medicines by GTIN and by scientific name, devices, ambulance transport,
 * ministry categories, vision products, imaging, laboratory) and CPT (the spec's REST
 * dialect). The codes and words are a small demo catalogue written for training — never a vendored
 * code set: a real deployment prices the licensed catalogues. Amounts are integer halalas.
 *
 * Per entry, beside the price: prior authorization, exclusion, and the rules of its claim type —
 * a tooth for oral items, a quantity and days-supply limit for medications, the codes an
 * institutional package already pays for (docs/decisions/071).
 */

export interface CatalogueRules {
  requiresPreauth?: boolean;
  excluded?: boolean;
  /** Oral health: the item must name the tooth (item.bodySite, FDI). */
  tooth?: boolean;
  /** Medications: units paid per claim line at most. */
  maxQuantity?: number;
  /** Medications: days of supply paid per claim line at most. */
  maxDaysSupply?: number;
  /** Institutional packages: codes (same system) the package price already includes. */
  includes?: readonly string[];
  /** First and last day the code may be billed (the demo catalogue's activation period, decision 104). */
  active?: { start?: string; end?: string };
}

export interface CatalogueEntry extends CatalogueRules {
  system: string;
  code: string;
  /** Our own short wording. */
  description: string;
  category: BenefitCategoryCode;
  price: number;
}

const SAR = (riyals: number) => riyals * 100;
function categoryOf(system: string, code: string): BenefitCategoryCode {
  const category = benefitCategoryOf(system, code);
  if (!category) throw new Error(`sandbox catalogue: no benefit category for ${system}|${code} in lib/fhir's DEMO_BENEFIT_CATEGORIES`);
  return category;
}

function activationEntry(system: string, code: string): { active?: { start?: string; end?: string } } {
  const active = nphies.codeActivation(system, code);
  return active ? { active } : {};
}

const entry = (system: string, code: string, description: string, riyals: number, rules: CatalogueRules = {}): CatalogueEntry => ({
  system,
  code,
  description,
  // The benefit category is shared with the portal's estimate and scrubber (lib/fhir DEMO_BENEFIT_CATEGORIES).
  category: categoryOf(system, code),
  price: SAR(riyals),
  ...rules,
  // The activation period is the shared catalogue's (lib/fhir/nphies CODE_ACTIVATION, decision 104).
  ...activationEntry(system, code),
  // Exclusions are shared with the portal's scrubber (lib/fhir EXCLUDED_SERVICES), not set here.
  ...(isExcludedService(system, code) ? { excluded: true } : {}),
});

const S = nphies.SYSTEMS;

export const NPHIES_CATALOGUE: readonly CatalogueEntry[] = [
  // services (consultations, room and board, vision, packages)
  entry(S.services, "SVC-0101", "General practitioner consultation", 150),
  entry(S.services, "SVC-0102", "Specialist consultation", 300),
  entry(S.services, "SVC-0201", "Emergency assessment", 400),
  entry(S.services, "SVC-0301", "Ward bed, one day", 900),
  entry(S.services, "SVC-0401", "Eye examination and refraction", 200),
  entry(S.services, "SVC-0402", "Single-vision spectacle lenses, pair", 350),
  entry(S.services, "SVC-0403", "Contact lenses, cosmetic", 600),
  entry(S.services, "PKG-0501", "Normal delivery package, two days", 7_500, { requiresPreauth: true, includes: ["SVC-0301", "SVC-0102"] }),
  entry(S.services, "PKG-0502", "Day-case knee arthroscopy package", 11_000, { requiresPreauth: true, includes: ["SVC-0301"] }),
  // procedures
  entry(S.procedures, "PRC-1001", "Suture of a small wound", 450),
  entry(S.procedures, "PRC-1002", "Joint injection", 380),
  entry(S.procedures, "PRC-1003", "Laparoscopic gall bladder removal", 13_000, { requiresPreauth: true }),
  // oral health (outpatient and inpatient)
  entry(S.oralHealthOp, "ORL-2001", "Dental examination", 120),
  entry(S.oralHealthOp, "ORL-2002", "Scaling and polishing", 250),
  entry(S.oralHealthOp, "ORL-2003", "Composite filling, one surface", 300, { tooth: true }),
  entry(S.oralHealthOp, "ORL-2004", "Root canal treatment, molar", 1_400, { tooth: true }),
  entry(S.oralHealthOp, "ORL-2005", "Porcelain crown", 2_200, { tooth: true, requiresPreauth: true }),
  entry(S.oralHealthOp, "ORL-2006", "Tooth whitening", 900),
  entry(S.oralHealthIp, "ORL-2101", "Surgical removal of an impacted tooth under general anaesthesia", 3_500, { tooth: true, requiresPreauth: true }),
  // medications (GTIN-style product codes of our own)
  entry(S.medicationCodes, "06280000000101", "Paracetamol 500 mg, 24 tablets", 8, { maxQuantity: 4, maxDaysSupply: 30 }),
  entry(S.medicationCodes, "06280000000102", "Amoxicillin 500 mg, 21 capsules", 25, { maxQuantity: 2, maxDaysSupply: 14 }),
  entry(S.medicationCodes, "06280000000103", "Metformin 850 mg, 60 tablets", 30, { maxQuantity: 3, maxDaysSupply: 90 }),
  entry(S.medicationCodes, "06280000000104", "Insulin glargine pen, 5 pens", 220, { maxQuantity: 2, maxDaysSupply: 60, requiresPreauth: true }),
  // medicines by scientific name, devices, ambulance transport, ministry categories, vision products
  entry(S.scientificCodes, "XSC-0001", "Paracetamol 500 mg tablet", 1, { maxQuantity: 60, maxDaysSupply: 30 }),
  entry(S.scientificCodes, "XSC-0003", "Amoxicillin 500 mg capsule", 2, { maxQuantity: 42, maxDaysSupply: 14 }),
  entry(S.medicalDevices, "XMD-0001", "Blood glucose meter", 150),
  entry(S.medicalDevices, "XMD-0003", "Knee brace", 220),
  entry(S.transportation, "XTR-0001", "Basic ambulance, within the city", 500),
  entry(S.mohCategory, "XMC-0001", "Primary care visit", 120),
  entry(S.visionProduct, "XVP-0001", "Single-vision lens", 180),
  entry(S.visionProduct, "XVP-0006", "Spectacle frame, standard", 250),
  // imaging
  entry(S.imaging, "IMG-3001", "Chest X-ray, two views", 180),
  entry(S.imaging, "IMG-3002", "Ultrasound of the abdomen", 450),
  entry(S.imaging, "IMG-3003", "MRI of the brain with contrast", 2_500, { requiresPreauth: true }),
  // laboratory
  entry(S.laboratory, "LAB-4001", "Complete blood count", 60),
  entry(S.laboratory, "LAB-4002", "HbA1c", 90),
  entry(S.laboratory, "LAB-4003", "Comprehensive metabolic panel", 120),
];

/**
 * The activation period of a code the sandbox knows: its catalogue entry's, or the shared
 * catalogue's for a code it does not price. What the strict rules ask (CheckContext.codeActivation).
 */
export function activationOf(system: string, code: string): { start?: string; end?: string } | undefined {
  const priced = NPHIES_CATALOGUE.find((e) => e.system === system && e.code === code);
  if (priced) return priced.active;
  return activationEntry(system, code).active;
}

export const catalogueKey = (system: string | undefined, code: string | undefined): string => `${system ?? ""}|${code ?? ""}`;

/** Is this one of the exchange's product systems (vs CPT, the REST spec's)? */
export function isNphiesProductSystem(system: string | undefined): boolean {
  return PRODUCT_SYSTEMS.some((key) => nphies.SYSTEMS[key] === system);
}

export const CPT_SYSTEM = CODE_SYSTEMS.cpt;
