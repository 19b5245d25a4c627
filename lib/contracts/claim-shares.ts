import { and, desc, eq, ne } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db";
import { eligibilityChecks, patients } from "@/lib/db";
import { benefitCategoryOf, priceListKeyOf, shareTermsOf, type AnnualTerms, type BenefitsView } from "@/lib/fhir";
import { computeShares, shareTotals, vatPercentFor, type BenefitTerms, type ShareResult } from "./share";
import { coverageHolderTermsOf, coverageTermsOf } from "@/lib/patients";
import { contractPriceFor, contractPricesFor } from "./store";

/** One line of a claim being built, as the shares need it. */
export interface ShareItem {
  /** The line's code system: its canonical URL or price-list key; absent or empty = CPT (forms saved before care settings). */
  system?: string;
  code: string;
  servicedDate: string;
  quantity: number;
  unitPriceMinor: number;
}

/**
 * The patient's share and VAT of each line of a claim being built (docs/decisions/091): the
 * contract price of each line's date (the coverage's network and class rows first, decision 089),
 * and the terms of the last eligibility answer for this patient and payer — copay and remaining
 * benefit per category, the annual deductible and out-of-pocket maximum (none known: the payer's
 * share is not capped and the copay is 0). Each line is priced in its own code system — CPT or
 * any of the exchange's lists — and drawn from its code's benefit category (lib/fhir
 * `benefitCategoryOf`, the list the sandbox adjudicates with).
 */
export async function claimLineShares(
  db: Db | Tx,
  input: { nationalId: string; insurerId: string; network?: string; coverageClass?: string; items: readonly ShareItem[] },
): Promise<ShareResult[]> {
  return (await claimLineSharesWithBasis(db, input)).shares;
}

/** {@link claimLineShares}, and whether an eligibility answer gave the terms (false: no copay, no cap assumed). */
export async function claimLineSharesWithBasis(
  db: Db | Tx,
  input: { nationalId: string; insurerId: string; network?: string; coverageClass?: string; items: readonly ShareItem[] },
): Promise<{ shares: ShareResult[]; answered: boolean; covers: (date: string) => boolean }> {
  let answered = false;
  let covers: (date: string) => boolean = () => false;
  const [patient] = await db.select({ id: patients.id }).from(patients).where(eq(patients.nationalId, input.nationalId)).limit(1);
  let terms: BenefitTerms[] = [];
  let annual: AnnualTerms = {};
  if (patient) {
    const [check] = await db
      .select({ view: eligibilityChecks.responseView, servicedDate: eligibilityChecks.servicedDate })
      .from(eligibilityChecks)
      .where(and(eq(eligibilityChecks.patientId, patient.id), eq(eligibilityChecks.insurerId, input.insurerId), ne(eligibilityChecks.outcome, "rejected")))
      .orderBy(desc(eligibilityChecks.checkedAt))
      .limit(1);
    const view = check?.view as BenefitsView | null | undefined;
    answered = view?.insurances?.[0] !== undefined;
    if (answered && check) covers = answerCovers(view!.insurances[0]!.benefitPeriod, check.servicedDate);
    ({ benefits: terms, annual } = shareTermsOf(view?.insurances?.[0]));
  }
  const lines = [];
  for (const [n, item] of input.items.entries()) {
    const system = priceListKeyOf(item.system || "cpt");
    const contract = system ? await contractPriceFor(db, { insurerId: input.insurerId, network: input.network ?? "", coverageClass: input.coverageClass ?? "", system, code: item.code, date: item.servicedDate }) : undefined;
    const category = benefitCategoryOf(item.system || "cpt", item.code);
    lines.push({ sequence: n + 1, code: item.code, ...(category ? { category } : {}), quantity: item.quantity, unitPriceMinor: item.unitPriceMinor, ...(contract ? { contractPriceMinor: contract.priceMinor } : {}) });
  }
  return { shares: computeShares(lines, terms, vatPercentFor(input.nationalId), annual), answered, covers };
}

/**
 * Whether an eligibility answer speaks for a service date (decision 123): the date lies in
 * the insurance's benefit period (CoverageEligibilityResponse.insurance.benefitPeriod), or — when
 * the payer gave none — it is the date the check asked about. Outside it the patient's share is
 * unknown, not guessed.
 */
export function answerCovers(period: { start?: string; end?: string } | undefined, checkedDate: string): (date: string) => boolean {
  if (!period?.start && !period?.end) return (date) => date === checkedDate;
  const start = period.start?.slice(0, 10);
  const end = period.end?.slice(0, 10);
  return (date) => (!start || date >= start) && (!end || date <= end);
}

/** A service line as the form knows it, to price from the contract. */
export interface PriceLine {
  /** The line's code list (URL or price-list key; empty = CPT). */
  system?: string;
  code: string;
  servicedDate: string;
  /** The line's position in the form (0-based). */
  index: number;
}

/**
 * The contract price of each service line of an authorization or claim being written (decision 123): the payer of the chosen coverage, its network and class, on each line's date — the
 * price the scrubber compares with (decision 089). Undefined when the coverage is not this
 * patient's; a line the contract does not price is left out.
 */
export async function contractLinePrices(
  db: Db | Tx,
  input: { patientId: string; coverageId: string; lines: readonly PriceLine[] },
): Promise<{ index: number; priceMinor: number }[] | undefined> {
  const row = await coverageTermsOf(db, input.patientId, input.coverageId);
  if (!row) return undefined;
  const keyed = input.lines.flatMap((l) => {
    const system = priceListKeyOf(l.system || "cpt");
    return system ? [{ index: l.index, system, code: l.code, date: l.servicedDate }] : [];
  });
  const prices = await contractPricesFor(db, { insurerId: row.insurerId, network: row.network, coverageClass: row.coverageClass }, keyed);
  return keyed.flatMap((l, n) => (prices[n] ? [{ index: l.index, priceMinor: prices[n]!.priceMinor }] : []));
}

/** A line of the claim form's live shares: its shares and its position in the form (0-based). */
export interface LiveShareLine extends ShareResult {
  index: number;
}

/**
 * The claim form's live shares (docs/decisions/091) for a patient and one of their coverages: the
 * coverage's payer, network and class price the lines exactly as the submit does. Undefined when
 * the coverage is not this patient's, so nothing of another patient can be read through it.
 */
export async function liveClaimShares(
  db: Db | Tx,
  input: { patientId: string; coverageId: string; items: readonly (ShareItem & { index: number })[] },
): Promise<{ lines: LiveShareLine[]; totals: ReturnType<typeof shareTotals>; vatPercent: number; answered: boolean; unknownLines: number[] } | undefined> {
  const row = await coverageHolderTermsOf(db, input.patientId, input.coverageId);
  if (!row) return undefined;
  const { shares, answered, covers } = await claimLineSharesWithBasis(db, { nationalId: row.nationalId, insurerId: row.insurerId, network: row.network, coverageClass: row.coverageClass, items: input.items });
  const lines = shares.map((share, n) => ({ ...share, index: input.items[n]!.index }));
  // A line whose date no eligibility answer covers: its patient share is unknown, not 0.
  const unknownLines = input.items.filter((item) => !covers(item.servicedDate)).map((item) => item.index);
  return { lines, totals: shareTotals(lines), vatPercent: vatPercentFor(row.nationalId), answered, unknownLines };
}
