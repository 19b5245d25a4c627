import { eq } from "drizzle-orm";
import { contractPriceFor, shareTotals, vatPercentFor, type ShareResult } from "@/lib/contracts";
import { patients, type Db } from "@/lib/db";
import { annualLeft, benefitCategoryOf, computeLineShares, priceListKeyOf, PRICE_LIST_SYSTEMS, shareTermsOf } from "@/lib/fhir";
import { getCheckView } from "./store";

/**
 * "Estimate for this visit" (docs/decisions/091): from an eligibility answer (copay and remaining
 * benefit per category, the annual deductible and out-of-pocket maximum with what is met, whether
 * a category needs an authorization) and the payer's contract of the service date, what the payer
 * and the patient pay per planned service, and the VAT. A service is a code of any list the
 * contract can price — CPT (the spec's REST) or the exchange's own systems — priced from its own
 * list's row and paid from its code's benefit category (lib/fhir `benefitCategoryOf`, the list the
 * sandbox adjudicates with).
 */
export interface PlannedService {
  /** The code's list: its canonical URL or price-list key; absent or empty = CPT. */
  system?: string;
  code: string;
  quantity: number;
}

export interface VisitEstimateLine extends ShareResult {
  /** The line's code list (canonical URL). */
  system: string;
  /** The contract's unit price; undefined when the contract does not price the service. */
  unitPriceMinor?: number;
  quantity: number;
}

/** An annual amount of the coverage: what is left before the visit and after it (halalas). */
export interface AnnualLeft {
  limitMinor: number;
  leftMinor: number;
  leftAfterMinor: number;
}

export interface VisitEstimate {
  checkId: string;
  servicedDate: string;
  insurerId: string;
  /** The patient's document (its number and type): the VAT exemption depends on it. Only this check's patient. */
  patient: { documentNumber: string; documentType: string };
  vatPercent: number;
  lines: VisitEstimateLine[];
  totals: ReturnType<typeof shareTotals>;
  /** The annual deductible and out-of-pocket maximum, when the answer gives them. */
  deductible?: AnnualLeft;
  outOfPocket?: AnnualLeft;
  /** Services the contract does not price: the estimate cannot say what they cost. */
  unpriced: string[];
}

export async function estimateVisit(db: Db, checkId: string, services: readonly PlannedService[]): Promise<VisitEstimate | undefined> {
  const check = await getCheckView(db, checkId);
  if (!check || check.outcome === "rejected") return undefined;
  const insurance = check.benefits?.insurances.find((i) => i.coverageId === check.coverage?.coverageRef) ?? check.benefits?.insurances[0];
  const categories = insurance?.categories ?? [];
  const { benefits, annual } = shareTermsOf(insurance);
  const vatPercent = vatPercentFor(check.patient.nationalId);
  const priced: { sequence: number; system: string; code: string; category?: string; quantity: number; contract?: Awaited<ReturnType<typeof contractPriceFor>> }[] = [];
  for (const [n, s] of services.entries()) {
    const key = priceListKeyOf(s.system || "cpt");
    const contract = key ? await contractPriceFor(db, { insurerId: check.insurer.id, network: check.coverage?.network ?? "", coverageClass: check.coverage?.coverageClass ?? "", system: key, code: s.code, date: check.servicedDate }) : undefined;
    const category = benefitCategoryOf(s.system || "cpt", s.code);
    priced.push({ sequence: n + 1, system: (key && PRICE_LIST_SYSTEMS[key]) || s.system || "", code: s.code, ...(category ? { category } : {}), quantity: s.quantity, ...(contract ? { contract } : {}) });
  }
  const known = priced.filter((p) => p.contract);
  const shareLines = known.map((p) => ({
    sequence: p.sequence,
    code: p.code,
    ...(p.category ? { category: p.category } : {}),
    quantity: p.quantity,
    unitPriceMinor: p.contract!.priceMinor,
    contractPriceMinor: p.contract!.priceMinor,
    authorizationRequired: p.contract!.authorizationRequired || categories.some((c) => c.code === p.category && c.authorizationRequired),
  }));
  const { results: shares, ledger } = computeLineShares(shareLines, benefits, vatPercent, annual);
  const lines = shares.map((r) => {
    const p = known.find((k) => k.sequence === r.sequence)!;
    return { ...r, system: p.system, unitPriceMinor: p.contract!.priceMinor, quantity: p.quantity };
  });
  const before = annualLeft(annual);
  const after = annualLeft(annual, ledger);
  const [doc] = await db.select({ documentType: patients.documentType }).from(patients).where(eq(patients.id, check.patient.id)).limit(1);
  return {
    checkId,
    servicedDate: check.servicedDate,
    insurerId: check.insurer.id,
    patient: { documentNumber: check.patient.nationalId, documentType: doc?.documentType ?? "nationalId" },
    vatPercent,
    lines,
    totals: shareTotals(lines),
    ...(annual.deductibleMinor !== undefined ? { deductible: { limitMinor: annual.deductibleMinor, leftMinor: before.deductibleLeftMinor!, leftAfterMinor: after.deductibleLeftMinor! } } : {}),
    ...(annual.outOfPocketMaxMinor !== undefined ? { outOfPocket: { limitMinor: annual.outOfPocketMaxMinor, leftMinor: before.outOfPocketLeftMinor!, leftAfterMinor: after.outOfPocketLeftMinor! } } : {}),
    unpriced: priced.filter((p) => !p.contract).map((p) => p.code),
  };
}
