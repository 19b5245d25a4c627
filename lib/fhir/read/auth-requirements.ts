import type { BenefitsView } from "./eligibility-response";
import type { CodedView } from "./values";

/**
 * The services an eligibility answer says need a prior authorization (purpose `auth-requirements`,
 * guide 7.1, Table 36): the insurance items that name a service (`productOrService`) with
 * `authorizationRequired`, each service once, from the insurances in force. Pure: the result page
 * and the forms' line marks read the same answer the same way.
 */
export function servicesNeedingAuthorization(view: Pick<BenefitsView, "insurances">): CodedView[] {
  const seen = new Map<string, CodedView>();
  for (const insurance of view.insurances) {
    if (!insurance.inforce) continue;
    for (const item of insurance.categories) {
      const service = item.productOrService;
      if (!service?.code || !item.authorizationRequired || item.excluded) continue;
      const key = `${service.system ?? ""}|${service.code}`;
      if (!seen.has(key)) seen.set(key, service);
    }
  }
  return [...seen.values()];
}
