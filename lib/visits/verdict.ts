import type { VisitVerdict, VisitVerdictDetail } from "@/lib/db";
import type { BenefitsView } from "@/lib/fhir";
import { findCode, type ProcedureEntry } from "@/lib/fhir";

/** Most serious first: the headline verdict of a visit is the first of its problems in this order. */
export const VERDICT_SEVERITY: readonly VisitVerdict[] = [
  "platform_error",
  "not_registered",
  "no_coverage",
  "not_in_force",
  "benefit_exhausted",
  "preauth_required",
  "benefit_low",
  "in_force",
];

/** Verdicts that need the front desk's attention before the visit. */
export const PROBLEM_VERDICTS: readonly VisitVerdict[] = VERDICT_SEVERITY.filter((v) => v !== "in_force");

/** The benefit category each planned service is paid from (curated CPT list). */
export function serviceCategories(services: readonly string[]): { service: string; category: string }[] {
  return services.flatMap((service) => {
    const entry = findCode("cpt", service) as ProcedureEntry | undefined;
    return entry?.category ? [{ service, category: entry.category }] : [];
  });
}

/**
 * The verdict of an answered check: not in force; or per planned service's category — excluded
 * (no coverage for it), nothing remaining (exhausted), authorization required, or remaining under
 * `lowThresholdPercent` of the limit (nearly exhausted); otherwise in force.
 */
export function verdictOfBenefits(view: Pick<BenefitsView, "inforce" | "insurances">, services: readonly string[], lowThresholdPercent: number): { verdict: VisitVerdict; detail: VisitVerdictDetail } {
  if (!view.inforce) return { verdict: "not_in_force", detail: { problems: [{ verdict: "not_in_force" }] } };
  const insurance = view.insurances.find((i) => i.inforce) ?? view.insurances[0];
  const problems: VisitVerdictDetail["problems"] = [];
  for (const { service, category } of serviceCategories(services)) {
    const found = insurance?.categories.find((c) => c.code === category && c.network !== "out") ?? insurance?.categories.find((c) => c.code === category);
    if (!found || found.excluded) {
      problems.push({ verdict: "no_coverage", category, service });
      continue;
    }
    if (found.remaining && found.remaining.minor <= 0) problems.push({ verdict: "benefit_exhausted", category, service, remainingMinor: 0, ...(found.usedPercent !== undefined ? { usedPercent: found.usedPercent } : {}) });
    else if (found.usedPercent !== undefined && found.remaining && 100 - found.usedPercent < lowThresholdPercent)
      problems.push({ verdict: "benefit_low", category, service, remainingMinor: found.remaining.minor, usedPercent: found.usedPercent });
    if (found.authorizationRequired) problems.push({ verdict: "preauth_required", category, service });
  }
  problems.sort((a, b) => VERDICT_SEVERITY.indexOf(a.verdict) - VERDICT_SEVERITY.indexOf(b.verdict));
  return { verdict: problems[0]?.verdict ?? "in_force", detail: { problems } };
}
