import { PRICE_LIST_SYSTEMS } from "./price-list";
import { SYSTEMS } from "./nphies/terminology";
import { CODE_SYSTEMS } from "./systems";

/**
 * Services no plan of the exchange's payers pays for (cosmetic care): ONE list, read by the
 * sandbox's adjudication (an excluded catalogue entry is denied, ar001) and by the portal's claim
 * scrubber (rule `service-excluded`, docs/decisions/090), so the scrubber finds before sending
 * exactly what the payer would deny. Keyed by the code system's canonical URL.
 */
export const EXCLUDED_SERVICES: Readonly<Record<string, readonly string[]>> = {
  [CODE_SYSTEMS.cpt]: ["15823"],
  [SYSTEMS.services]: ["SVC-0403"],
  [SYSTEMS.oralHealthOp]: ["ORL-2006"],
};

/** Whether every plan excludes a service; `system` is a canonical URL or a price-list system key (`cpt`). */
export function isExcludedService(system: string, code: string): boolean {
  const url = PRICE_LIST_SYSTEMS[system] ?? system;
  return EXCLUDED_SERVICES[url]?.includes(code) ?? false;
}
