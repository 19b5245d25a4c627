import { percentOf } from "@/lib/fhir";

/**
 * The patient's share and VAT per line (docs/decisions/091), from the contract price of the
 * service date (decision 089) and the coverage's benefits as the last eligibility answer gives
 * them (copay percent and remaining benefit per category). The SAME arithmetic as the sandbox's
 * adjudication (sandbox/adjudication.ts, steps 7–8), so an estimate matches the decision:
 *   eligible = min(submitted, contract price × quantity)  (submitted when no contract price)
 *   share    = copay % of eligible, rounded half up to a halala
 *   payer    = eligible − share, capped at the category's remaining benefit (lines of one
 *              category draw on it in order); patient share = eligible − payer
 *   VAT      = 15 % of the line for a non-Saudi patient, 0 for a citizen; the patient owes the
 *              VAT of their share.
 * Amounts are integer halalas.
 */

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

/** The VAT rate the clinic charges a patient: 15 % for non-Saudi patients, 0 for citizens. */
export const VAT_PERCENT_NON_SAUDI = 15;

/**
 * Whether the patient is a Saudi citizen, from the identifier the platform knows them by: a
 * national ID starts with 1, an Iqama (resident) with 2; anything else (passport, visa) is not
 * a citizen. The registry has no nationality or document-type column yet (decision 091).
 */
export function isCitizenId(nationalId: string): boolean {
  return /^1\d{9}$/.test(nationalId);
}

export const vatPercentFor = (nationalId: string): number => (isCitizenId(nationalId) ? 0 : VAT_PERCENT_NON_SAUDI);

export function computeShares(lines: readonly ShareLine[], benefits: readonly BenefitTerms[], vatPercent: number): ShareResult[] {
  const spent = new Map<string, number>();
  return lines.map((line) => {
    const submitted = line.unitPriceMinor * line.quantity;
    const terms = line.category ? benefits.find((b) => b.category === line.category) : undefined;
    const base = { sequence: line.sequence, code: line.code, ...(line.category ? { category: line.category } : {}), submittedMinor: submitted, authorizationRequired: line.authorizationRequired === true };
    const notCovered = benefits.length > 0 && (!terms || terms.excluded === true);
    const eligible = line.contractPriceMinor !== undefined ? Math.min(submitted, line.contractPriceMinor * line.quantity) : submitted;
    if (notCovered) {
      const vat = percentOf(submitted, vatPercent);
      return { ...base, eligibleMinor: 0, payerMinor: 0, patientMinor: submitted, vatMinor: vat, patientVatMinor: vat, patientTotalMinor: submitted + vat, notCovered: true };
    }
    const share = percentOf(eligible, terms?.copayPercent ?? 0);
    let payer = eligible - share;
    if (terms?.remainingMinor !== undefined && line.category) {
      const remaining = Math.max(0, terms.remainingMinor - (spent.get(line.category) ?? 0));
      payer = Math.min(payer, remaining);
      spent.set(line.category, (spent.get(line.category) ?? 0) + payer);
    }
    const patient = eligible - payer;
    const vat = percentOf(eligible, vatPercent);
    const patientVat = percentOf(patient, vatPercent);
    return { ...base, eligibleMinor: eligible, payerMinor: payer, patientMinor: patient, vatMinor: vat, patientVatMinor: patientVat, patientTotalMinor: patient + patientVat, notCovered: false };
  });
}

/** Totals of a set of lines. */
export function shareTotals(results: readonly ShareResult[]) {
  return results.reduce(
    (t, r) => ({
      eligibleMinor: t.eligibleMinor + r.eligibleMinor,
      payerMinor: t.payerMinor + r.payerMinor,
      patientMinor: t.patientMinor + r.patientMinor,
      vatMinor: t.vatMinor + r.vatMinor,
      patientVatMinor: t.patientVatMinor + r.patientVatMinor,
      patientTotalMinor: t.patientTotalMinor + r.patientTotalMinor,
    }),
    { eligibleMinor: 0, payerMinor: 0, patientMinor: 0, vatMinor: 0, patientVatMinor: 0, patientTotalMinor: 0 },
  );
}
