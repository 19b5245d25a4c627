import type { CoverageEligibilityResponse } from "@medplum/fhirtypes";
import { toMinorUnits } from "../money";
import { parseReference } from "../references";
import { BENEFIT_CATEGORIES, CODE_SYSTEMS, PLATFORM_CURRENCY, isBenefitCategoryCode } from "../systems";

/** An amount in minor units (halalas) with its currency. */
export interface MinorMoney {
  minor: number;
  currency: string;
}

export interface BenefitCategoryView {
  /** Standard benefit-category code (`1`, `3`, `F6` …); unknown codes are kept as they came. */
  code: string;
  /** True when the code is one of the standard categories (a name in both languages exists). */
  known: boolean;
  /** The payer's own label, when it sent one. */
  payerName?: string;
  /** The plan does not cover this category. */
  excluded: boolean;
  authorizationRequired: boolean;
  allowed?: MinorMoney;
  used?: MinorMoney;
  /** allowed − used, never below zero; absent when allowed is unknown. */
  remaining?: MinorMoney;
  /** Share of the allowed amount already used, 0–100 (rounded down); absent without an allowed amount. */
  usedPercent?: number;
  copayPercent?: number;
}

export interface InsuranceView {
  /** The Coverage id on the platform (`cov-…`), from `insurance[].coverage`. */
  coverageId?: string;
  inforce: boolean;
  benefitPeriod?: { start?: string; end?: string };
  categories: BenefitCategoryView[];
}

export interface BenefitsView {
  /** Response identifier (the platform's). */
  responseId?: string;
  outcome: string;
  disposition?: string;
  insurerId?: string;
  servicedDate?: string;
  created: string;
  /** True when at least one insurance is in force. */
  inforce: boolean;
  insurances: InsuranceView[];
}

function moneyOf(value: { value?: number; currency?: string } | undefined): MinorMoney | undefined {
  if (value?.value === undefined) return undefined;
  const minor = toMinorUnits(value.value);
  if (minor === undefined) return undefined;
  return { minor, currency: value.currency ?? PLATFORM_CURRENCY };
}

function codeOf(concept: { coding?: { system?: string; code?: string }[] } | undefined, system: string): string | undefined {
  const codings = concept?.coding ?? [];
  return (codings.find((c) => c.system === system) ?? codings[0])?.code;
}

/**
 * CoverageEligibilityResponse → what the front desk needs to see: in force or not per insurance,
 * and per category allowed / used / remaining in exact minor units. Amounts in another currency
 * than the allowed amount are not subtracted (remaining is left out rather than guessed).
 */
export function readBenefits(response: CoverageEligibilityResponse): BenefitsView {
  const insurances: InsuranceView[] = (response.insurance ?? []).map((insurance) => {
    const categories: BenefitCategoryView[] = (insurance.item ?? []).map((item) => {
      const code = codeOf(item.category, CODE_SYSTEMS.benefitCategory) ?? "";
      const benefits = item.benefit ?? [];
      const money = benefits.find((b) => codeOf(b.type, CODE_SYSTEMS.benefitType) === "benefit") ?? benefits.find((b) => b.allowedMoney);
      const copay = benefits.find((b) => codeOf(b.type, CODE_SYSTEMS.benefitType) === "copay-percent");
      const allowed = moneyOf(money?.allowedMoney);
      const used = moneyOf(money?.usedMoney) ?? (allowed ? { minor: 0, currency: allowed.currency } : undefined);
      const comparable = allowed && used && allowed.currency === used.currency;
      const view: BenefitCategoryView = {
        code,
        known: isBenefitCategoryCode(code),
        excluded: item.excluded === true,
        authorizationRequired: item.authorizationRequired === true,
      };
      if (item.name) view.payerName = item.name;
      if (allowed) view.allowed = allowed;
      if (used) view.used = used;
      if (comparable) {
        view.remaining = { minor: Math.max(0, allowed.minor - used.minor), currency: allowed.currency };
        view.usedPercent = allowed.minor === 0 ? (used.minor > 0 ? 100 : 0) : Math.min(100, Math.floor((used.minor * 100) / allowed.minor));
      }
      if (typeof copay?.allowedUnsignedInt === "number") view.copayPercent = copay.allowedUnsignedInt;
      return view;
    });
    const view: InsuranceView = { inforce: insurance.inforce === true, categories };
    const coverageId = parseReference(insurance.coverage?.reference, "Coverage")?.id;
    if (coverageId) view.coverageId = coverageId;
    if (insurance.benefitPeriod) view.benefitPeriod = { start: insurance.benefitPeriod.start, end: insurance.benefitPeriod.end };
    return view;
  });
  return {
    responseId: response.identifier?.[0]?.value ?? response.id,
    outcome: response.outcome ?? "complete",
    disposition: response.disposition,
    insurerId: parseReference(response.insurer?.reference, "Organization")?.id,
    servicedDate: response.servicedDate,
    created: response.created ?? "",
    inforce: insurances.some((i) => i.inforce),
    insurances,
  };
}

/** Name of a benefit category in the UI language (standard names), else the payer's label or the code. */
export function benefitCategoryName(code: string, locale: string, payerName?: string): string {
  if (isBenefitCategoryCode(code)) return BENEFIT_CATEGORIES[code][locale === "ar" ? "ar" : "en"];
  return payerName ?? code;
}
