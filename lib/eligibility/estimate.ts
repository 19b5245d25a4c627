import { computeShares, contractPriceFor, shareTotals, vatPercentFor, type BenefitTerms, type ShareResult } from "@/lib/contracts";
import type { Db } from "@/lib/db";
import { CPT_CODES } from "@/lib/fhir";
import { getCheckView } from "./store";

/**
 * "Estimate for this visit" (docs/decisions/091): from an eligibility answer (copay and remaining
 * benefit per category, whether a category needs an authorization) and the payer's contract of
 * the service date, what the payer and the patient pay per planned service, and the VAT.
 */
export interface VisitEstimateLine extends ShareResult {
  /** The contract's unit price; undefined when the contract does not price the service. */
  unitPriceMinor?: number;
  quantity: number;
}

export interface VisitEstimate {
  checkId: string;
  servicedDate: string;
  insurerId: string;
  vatPercent: number;
  lines: VisitEstimateLine[];
  totals: ReturnType<typeof shareTotals>;
  /** Services the contract does not price: the estimate cannot say what they cost. */
  unpriced: string[];
}

export async function estimateVisit(db: Db, checkId: string, services: readonly { code: string; quantity: number }[]): Promise<VisitEstimate | undefined> {
  const check = await getCheckView(db, checkId);
  if (!check || check.outcome === "rejected") return undefined;
  const insurance = check.benefits?.insurances.find((i) => i.coverageId === check.coverage?.coverageRef) ?? check.benefits?.insurances[0];
  const categories = insurance?.categories ?? [];
  const terms: BenefitTerms[] = categories
    .filter((c) => !c.productOrService)
    .map((c) => ({ category: c.code, ...(c.copayPercent !== undefined ? { copayPercent: c.copayPercent } : {}), ...(c.remaining ? { remainingMinor: c.remaining.minor } : {}), excluded: c.excluded }));
  const vatPercent = vatPercentFor(check.patient.nationalId);
  const priced: { sequence: number; code: string; category?: string; quantity: number; contract?: Awaited<ReturnType<typeof contractPriceFor>> }[] = [];
  for (const [n, s] of services.entries()) {
    const contract = await contractPriceFor(db, { insurerId: check.insurer.id, network: check.coverage?.network ?? "", coverageClass: check.coverage?.coverageClass ?? "", system: "cpt", code: s.code, date: check.servicedDate });
    const category = CPT_CODES.find((c) => c.code === s.code)?.category;
    priced.push({ sequence: n + 1, code: s.code, ...(category ? { category } : {}), quantity: s.quantity, ...(contract ? { contract } : {}) });
  }
  const known = priced.filter((p) => p.contract);
  const shares = computeShares(
    known.map((p) => ({
      sequence: p.sequence,
      code: p.code,
      ...(p.category ? { category: p.category } : {}),
      quantity: p.quantity,
      unitPriceMinor: p.contract!.priceMinor,
      contractPriceMinor: p.contract!.priceMinor,
      authorizationRequired: p.contract!.authorizationRequired || categories.some((c) => c.code === p.category && c.authorizationRequired),
    })),
    terms,
    vatPercent,
  );
  const lines = shares.map((r) => ({ ...r, unitPriceMinor: known.find((p) => p.sequence === r.sequence)!.contract!.priceMinor, quantity: known.find((p) => p.sequence === r.sequence)!.quantity }));
  return { checkId, servicedDate: check.servicedDate, insurerId: check.insurer.id, vatPercent, lines, totals: shareTotals(lines), unpriced: priced.filter((p) => !p.contract).map((p) => p.code) };
}
