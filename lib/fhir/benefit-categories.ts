import { PRICE_LIST_SYSTEMS } from "./price-list";
import { SYSTEMS } from "./nphies/terminology";
import { CODE_SYSTEMS, type BenefitCategoryCode } from "./systems";
import { CPT_CODES } from "./terminology";

/**
 * The benefit category each demo code is paid from, per code system: ONE list, read by the
 * sandbox's catalogue (which adjudicates against the category's benefit) and by the portal's
 * estimate, live shares and scrubber (which draw on the same category of the eligibility answer),
 * so both sides put a line under the same benefit (docs/decisions/091). CPT's categories are the
 * curated CPT list's (lib/fhir/terminology.ts); the exchange's systems list their demo codes here.
 * Keyed by the code system's canonical URL. A real deployment's imported codes have no category
 * here: the payer's own answer (or the contract) has to say it.
 */
export const DEMO_BENEFIT_CATEGORIES: Readonly<Record<string, Readonly<Record<string, BenefitCategoryCode>>>> = {
  [SYSTEMS.services]: { "SVC-0101": "3", "SVC-0102": "3", "SVC-0201": "1", "SVC-0301": "49", "SVC-0401": "F6", "SVC-0402": "F6", "SVC-0403": "F6", "PKG-0501": "69", "PKG-0502": "2" },
  [SYSTEMS.procedures]: { "PRC-1001": "1", "PRC-1002": "1", "PRC-1003": "2" },
  [SYSTEMS.oralHealthOp]: { "ORL-2001": "23", "ORL-2002": "24", "ORL-2003": "25", "ORL-2004": "26", "ORL-2005": "36", "ORL-2006": "35" },
  [SYSTEMS.oralHealthIp]: { "ORL-2101": "28" },
  [SYSTEMS.medicationCodes]: { "06280000000101": "1", "06280000000102": "1", "06280000000103": "1", "06280000000104": "1" },
  [SYSTEMS.scientificCodes]: { "XSC-0001": "1", "XSC-0003": "1" },
  [SYSTEMS.medicalDevices]: { "XMD-0001": "1", "XMD-0003": "1" },
  [SYSTEMS.transportation]: { "XTR-0001": "1" },
  [SYSTEMS.mohCategory]: { "XMC-0001": "3" },
  [SYSTEMS.visionProduct]: { "XVP-0001": "F6", "XVP-0006": "F6" },
  [SYSTEMS.imaging]: { "IMG-3001": "4", "IMG-3002": "4", "IMG-3003": "62" },
  [SYSTEMS.laboratory]: { "LAB-4001": "5", "LAB-4002": "5", "LAB-4003": "5" },
};

/**
 * The benefit category a code is paid from, if the shared lists know it. `system` is a canonical
 * URL or a price-list system key (`cpt`, `services`, `oralHealthOp`, …).
 */
export function benefitCategoryOf(system: string | undefined, code: string): BenefitCategoryCode | undefined {
  if (!system) return undefined;
  const url = PRICE_LIST_SYSTEMS[system] ?? system;
  if (url === CODE_SYSTEMS.cpt) return CPT_CODES.find((c) => c.code === code)?.category;
  return DEMO_BENEFIT_CATEGORIES[url]?.[code];
}
