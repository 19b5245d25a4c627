import { computeLineShares, type AnnualTerms, type BenefitTerms, type ShareLine, type ShareResult } from "@/lib/fhir";

/**
 * The patient's share and VAT per line (docs/decisions/091), from the contract price of the
 * service date (decision 089) and the coverage's terms as the last eligibility answer gives them
 * (copay percent and remaining benefit per category, the annual deductible and out-of-pocket
 * maximum). The arithmetic itself is lib/fhir's `computeLineShares` — the one the sandbox's
 * adjudication runs (sandbox/adjudication.ts, steps 7–8), so an estimate matches the decision.
 * This module adds the clinic's VAT policy. Amounts are integer halalas.
 */
export type { AnnualTerms, BenefitTerms, ShareLine, ShareResult } from "@/lib/fhir";
export { shareTotals } from "@/lib/fhir";

/** The VAT rate the clinic charges a patient: 15 % for non-Saudi patients, 0 for citizens. */
export const VAT_PERCENT_NON_SAUDI = 15;

/**
 * Whether the patient is a Saudi citizen, from the identifier the platform knows them by: a
 * national ID starts with 1, an Iqama (resident) with 2; anything else (passport, visa) is not
 * a citizen (decision 091).
 */
export function isCitizenId(nationalId: string): boolean {
  return /^1\d{9}$/.test(nationalId);
}

export const vatPercentFor = (nationalId: string): number => (isCitizenId(nationalId) ? 0 : VAT_PERCENT_NON_SAUDI);

/** The shares of a set of lines (lib/fhir `computeLineShares`), the lines only. */
export function computeShares(lines: readonly ShareLine[], benefits: readonly BenefitTerms[], vatPercent: number, annual: AnnualTerms = {}): ShareResult[] {
  return computeLineShares(lines, benefits, vatPercent, annual).results;
}
