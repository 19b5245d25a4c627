import { CODE_SYSTEMS, toMinorUnits } from "@/lib/fhir";

/** One item of an adjudication, in halalas. */
export interface DecisionItem {
  sequence: number;
  code?: string;
  servicedDate?: string;
  quantity?: number;
  submittedMinor?: number;
  eligibleMinor?: number;
  copayMinor?: number;
  benefitMinor?: number;
  /** Adjudication reason codes (ar001, price-list …). */
  reasons: string[];
  /** Approved (benefit > 0), or denied. */
  approved: boolean;
}

export interface DecisionView {
  outcome?: string;
  disposition?: string;
  preAuthRef?: string;
  preAuthPeriod?: { start?: string; end?: string };
  items: DecisionItem[];
  totals: { submittedMinor: number; eligibleMinor: number; benefitMinor: number };
}

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const codeOf = (concept: unknown, system?: string): string | undefined =>
  arr((concept as Json | undefined)?.coding).find((c) => !system || c.system === system)?.code as string | undefined;

/**
 * The stored ClaimResponse as a table: per claim item its submitted / eligible / benefit amounts
 * (exact, in halalas), reasons, plus disposition and preAuthRef. Reads loosely: anything missing is
 * left out rather than failing the page.
 */
export function readDecision(response: Json | null | undefined, claim: Json | null | undefined): DecisionView | undefined {
  if (!response) return undefined;
  const claimItems = new Map(arr(claim?.item).map((i) => [i.sequence as number, i]));
  const totals = { submittedMinor: 0, eligibleMinor: 0, benefitMinor: 0 };
  const items = arr(response.item).map((entry): DecisionItem => {
    const sequence = Number(entry.itemSequence);
    const source = claimItems.get(sequence);
    const amounts: Record<string, number | undefined> = {};
    const reasons: string[] = [];
    for (const adj of arr(entry.adjudication)) {
      const category = codeOf(adj.category, CODE_SYSTEMS.adjudication) ?? codeOf(adj.category);
      const value = (adj.amount as Json | undefined)?.value;
      if (category && typeof value === "number") amounts[category] = toMinorUnits(value);
      const reason = codeOf(adj.reason);
      if (reason && !reasons.includes(reason)) reasons.push(reason);
    }
    totals.submittedMinor += amounts.submitted ?? 0;
    totals.eligibleMinor += amounts.eligible ?? 0;
    totals.benefitMinor += amounts.benefit ?? 0;
    return {
      sequence,
      code: codeOf(source?.productOrService),
      servicedDate: source?.servicedDate as string | undefined,
      quantity: (source?.quantity as Json | undefined)?.value as number | undefined,
      submittedMinor: amounts.submitted,
      eligibleMinor: amounts.eligible,
      copayMinor: amounts.copay,
      benefitMinor: amounts.benefit,
      reasons,
      approved: (amounts.benefit ?? 0) > 0 || ((amounts.eligible ?? 0) > 0 && !reasons.some((r) => r === "ar001" || r === "coverage-inactive" || r === "preauth-required")),
    };
  });
  const period = response.preAuthPeriod as Json | undefined;
  return {
    outcome: response.outcome as string | undefined,
    disposition: response.disposition as string | undefined,
    preAuthRef: response.preAuthRef as string | undefined,
    preAuthPeriod: period ? { start: period.start as string | undefined, end: period.end as string | undefined } : undefined,
    items,
    totals,
  };
}
