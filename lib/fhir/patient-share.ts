import { percentOf } from "./money";
import type { InsuranceView } from "./read";

/**
 * The patient-share arithmetic, ONE copy for the portal (lib/contracts `computeShares`: the
 * front desk's estimate and the shares written on a claim) and the sandbox's adjudication
 * (sandbox/adjudication.ts steps 7–8), so an estimate cannot drift from the decision
 * (docs/decisions/091). Pure; integer halalas.
 *
 * Per line, in order, from its eligible amount (min(billed, contract price × quantity)):
 *   1. deductible: while the coverage's annual deductible is not met, the patient pays the eligible
 *      amount in full (up to what is left of it);
 *   2. copay: copay % of the rest, rounded half up to a halala;
 *   3. out-of-pocket maximum: the patient's cost sharing (1 + 2) is capped at what is left of the
 *      annual out-of-pocket maximum — once reached the patient pays nothing more of covered care;
 *   4. the payer pays eligible − cost sharing, capped at the category's remaining benefit (lines
 *      of one category draw on it in order); what the cap leaves is the patient's too, but it is
 *      above the plan's limit, not cost sharing, so it counts toward neither the deductible nor
 *      the out-of-pocket maximum.
 */

/** The coverage's annual deductible and out-of-pocket maximum, and what earlier care met of them. */
export interface AnnualTerms {
  deductibleMinor?: number;
  /** Met by earlier claims this benefit year. */
  deductibleMetMinor?: number;
  outOfPocketMaxMinor?: number;
  /** Paid by the patient toward it this benefit year. */
  outOfPocketPaidMinor?: number;
}

/** What earlier lines of the same claim (or estimate) used: benefit per category, deductible, out-of-pocket. */
export interface ShareLedger {
  benefitSpent: Map<string, number>;
  deductibleApplied: number;
  outOfPocketAdded: number;
}

export const newShareLedger = (): ShareLedger => ({ benefitSpent: new Map(), deductibleApplied: 0, outOfPocketAdded: 0 });

export interface EligibleSplit {
  payerMinor: number;
  patientMinor: number;
  /** Part of the patient's share that went to the deductible. */
  deductibleMinor: number;
  /** The patient's cost sharing (deductible + copay), counted toward the out-of-pocket maximum. */
  costShareMinor: number;
  /** The payer's part was cut to the category's remaining benefit. */
  benefitCapped: boolean;
}

const left = (limit: number | undefined, used: number) => (limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, limit - used));

/**
 * Splits one line's eligible amount between the payer and the patient (steps 1–4 above) and
 * records it in the ledger. `remainingMinor`: what remains of the category's benefit before this
 * claim (unlimited when undefined).
 */
export function splitEligible(
  eligibleMinor: number,
  line: { category?: string; copayPercent: number; remainingMinor?: number },
  annual: AnnualTerms,
  ledger: ShareLedger,
): EligibleSplit {
  const deductibleLeft = annual.deductibleMinor === undefined ? 0 : left(annual.deductibleMinor, (annual.deductibleMetMinor ?? 0) + ledger.deductibleApplied);
  let deductible = Math.min(eligibleMinor, deductibleLeft);
  let costShare = deductible + percentOf(eligibleMinor - deductible, line.copayPercent);
  const outOfPocketLeft = left(annual.outOfPocketMaxMinor, (annual.outOfPocketPaidMinor ?? 0) + ledger.outOfPocketAdded);
  if (costShare > outOfPocketLeft) {
    costShare = outOfPocketLeft;
    deductible = Math.min(deductible, costShare);
  }
  let payer = eligibleMinor - costShare;
  const spent = line.category ? (ledger.benefitSpent.get(line.category) ?? 0) : 0;
  const remaining = left(line.remainingMinor, spent);
  const benefitCapped = payer > remaining;
  if (benefitCapped) payer = remaining;
  if (line.category) ledger.benefitSpent.set(line.category, spent + payer);
  ledger.deductibleApplied += deductible;
  ledger.outOfPocketAdded += costShare;
  return { payerMinor: payer, patientMinor: eligibleMinor - payer, deductibleMinor: deductible, costShareMinor: costShare, benefitCapped };
}

/** What is left of the deductible and the out-of-pocket maximum after the ledger's lines (undefined: the plan has none). */
export function annualLeft(annual: AnnualTerms, ledger: ShareLedger = newShareLedger()) {
  return {
    ...(annual.deductibleMinor !== undefined ? { deductibleLeftMinor: left(annual.deductibleMinor, (annual.deductibleMetMinor ?? 0) + ledger.deductibleApplied) } : {}),
    ...(annual.outOfPocketMaxMinor !== undefined ? { outOfPocketLeftMinor: left(annual.outOfPocketMaxMinor, (annual.outOfPocketPaidMinor ?? 0) + ledger.outOfPocketAdded) } : {}),
  };
}

export interface ShareLine {
  sequence: number;
  code: string;
  /** The benefit category of the code (standard benefit-category code), when known. */
  category?: string;
  quantity: number;
  /** What is billed per unit (the contract price on an estimate). */
  unitPriceMinor: number;
  /** The contract's unit price on the service date, when it has one. */
  contractPriceMinor?: number;
  authorizationRequired?: boolean;
}

export interface BenefitTerms {
  category: string;
  copayPercent?: number;
  /** What remains of the category's benefit; unlimited when absent. */
  remainingMinor?: number;
  excluded?: boolean;
}

export interface ShareResult {
  sequence: number;
  code: string;
  category?: string;
  submittedMinor: number;
  eligibleMinor: number;
  payerMinor: number;
  patientMinor: number;
  /** Part of the patient's share that went to the annual deductible. */
  deductibleMinor: number;
  /** VAT on the whole line (the claim item's tax extension). */
  vatMinor: number;
  /** VAT the patient pays (on their share). */
  patientVatMinor: number;
  /** What the patient pays: share + VAT on it. */
  patientTotalMinor: number;
  authorizationRequired: boolean;
  /** Why the payer pays nothing: the category is excluded or not in the plan. */
  notCovered: boolean;
}

/**
 * The shares of a set of lines: per line the eligible amount, {@link splitEligible}, and VAT at
 * `vatPercent` (the line's VAT; the patient owes the VAT of their share). A category the plan
 * excludes or lacks (when the plan names any): the patient pays all, outside the deductible and
 * the out-of-pocket maximum. Returns the lines and the ledger (what the lines used).
 */
export function computeLineShares(
  lines: readonly ShareLine[],
  benefits: readonly BenefitTerms[],
  vatPercent: number,
  annual: AnnualTerms = {},
): { results: ShareResult[]; ledger: ShareLedger } {
  const ledger = newShareLedger();
  const results = lines.map((line): ShareResult => {
    const submitted = line.unitPriceMinor * line.quantity;
    const terms = line.category ? benefits.find((b) => b.category === line.category) : undefined;
    const base = { sequence: line.sequence, code: line.code, ...(line.category ? { category: line.category } : {}), submittedMinor: submitted, authorizationRequired: line.authorizationRequired === true };
    if (benefits.length > 0 && (!terms || terms.excluded === true)) {
      const vat = percentOf(submitted, vatPercent);
      return { ...base, eligibleMinor: 0, payerMinor: 0, patientMinor: submitted, deductibleMinor: 0, vatMinor: vat, patientVatMinor: vat, patientTotalMinor: submitted + vat, notCovered: true };
    }
    const eligible = line.contractPriceMinor !== undefined ? Math.min(submitted, line.contractPriceMinor * line.quantity) : submitted;
    const split = splitEligible(
      eligible,
      { ...(line.category ? { category: line.category } : {}), copayPercent: terms?.copayPercent ?? 0, ...(terms?.remainingMinor !== undefined ? { remainingMinor: terms.remainingMinor } : {}) },
      annual,
      ledger,
    );
    const vat = percentOf(eligible, vatPercent);
    const patientVat = percentOf(split.patientMinor, vatPercent);
    return { ...base, eligibleMinor: eligible, payerMinor: split.payerMinor, patientMinor: split.patientMinor, deductibleMinor: split.deductibleMinor, vatMinor: vat, patientVatMinor: patientVat, patientTotalMinor: split.patientMinor + patientVat, notCovered: false };
  });
  return { results, ledger };
}

/** Totals of a set of lines. */
export function shareTotals(results: readonly ShareResult[]) {
  return results.reduce(
    (t, r) => ({
      eligibleMinor: t.eligibleMinor + r.eligibleMinor,
      payerMinor: t.payerMinor + r.payerMinor,
      patientMinor: t.patientMinor + r.patientMinor,
      deductibleMinor: t.deductibleMinor + r.deductibleMinor,
      vatMinor: t.vatMinor + r.vatMinor,
      patientVatMinor: t.patientVatMinor + r.patientVatMinor,
      patientTotalMinor: t.patientTotalMinor + r.patientTotalMinor,
    }),
    { eligibleMinor: 0, payerMinor: 0, patientMinor: 0, deductibleMinor: 0, vatMinor: 0, patientVatMinor: 0, patientTotalMinor: 0 },
  );
}

/**
 * The terms of an eligibility answer's insurance, as its reader parsed it once (decision 078):
 * copay and remaining benefit per category, and the annual deductible and out-of-pocket maximum
 * with what is already used of them.
 */
export function shareTermsOf(insurance: Pick<InsuranceView, "categories" | "deductible" | "outOfPocket"> | undefined): { benefits: BenefitTerms[]; annual: AnnualTerms } {
  const benefits: BenefitTerms[] = (insurance?.categories ?? [])
    .filter((c) => !c.productOrService && !c.annualOnly)
    .map((c) => ({ category: c.code, ...(c.copayPercent !== undefined ? { copayPercent: c.copayPercent } : {}), ...(c.remaining ? { remainingMinor: c.remaining.minor } : {}), excluded: c.excluded }));
  const annual: AnnualTerms = {};
  if (insurance?.deductible) {
    annual.deductibleMinor = insurance.deductible.allowed.minor;
    annual.deductibleMetMinor = insurance.deductible.used.minor;
  }
  if (insurance?.outOfPocket) {
    annual.outOfPocketMaxMinor = insurance.outOfPocket.allowed.minor;
    annual.outOfPocketPaidMinor = insurance.outOfPocket.used.minor;
  }
  return { benefits, annual };
}
