import { newShareLedger, percentOf, splitEligible, writeDisposition, type AdjudicationReasonCode, type AnnualTerms } from "../lib/fhir";
import { isoDate } from "./clock";
import { annualLimitsOf, contractRowFor, coveragePeriod, type BenefitLine, type CoverageDef, type ReferenceData } from "./reference-data";
import type { LineRuling } from "./appeals";
import type { ClaimRecord, Consumption } from "./store";
import type { ValidatedClaim, ValidatedItem } from "./validation";

/**
 * Deterministic adjudication rules (documented in sandbox/README.md, "Adjudication"). All amounts
 * are integer halalas.
 *
 * Per item, in order:
 *   1. coverage not in force on the item's service date     → denied (coverage-inactive)
 *   2. procedure excluded (cosmetic)                        → denied (ar001)
 *   3. benefit category not in the plan                     → denied (ar001)
 *   4. claims only: procedure needs prior authorization and
 *      no matching approved authorization is referenced     → denied (preauth-required)
 *        (unless the claim relies on an offline authorization: extension-authorization-offline-date)
 *   5. packages: an item whose code a package item of the same claim includes → paid by the
 *      package: eligible 0 (package-included)
 *   6. medications: approved quantity = quantity capped by the code's quantity limit and by its
 *      days-supply limit (quantity × limit ÷ days supplied)         → reason quantity-limit if lower
 *   7. eligible = min(submitted, price list × approved quantity[, authorized amount]) → price-list if lower;
 *      the price list is the payer's contract of the service date (network, class) when it prices
 *      the code (the shared CSV, docs/decisions/089), else the catalogue's price
 *   8. the split of eligible between payer and patient is lib/fhir's `splitEligible` — the same
 *      arithmetic as the portal's estimate (docs/decisions/091): the annual deductible first (the
 *      patient pays in full until it is met), then copay% of the rest (the coverage class's share,
 *      rounded half up), the patient's cost sharing capped at what is left of the annual
 *      out-of-pocket maximum; benefit = eligible − cost sharing, capped at the category's
 *      remaining annual benefit                         → reason ar002 if capped
 *      What the deductible and out-of-pocket took is consumed like benefit (keys
 *      DEDUCTIBLE_CONSUMED / OUT_OF_POCKET_CONSUMED), so later claims and eligibility see it.
 * Outcome: every item denied → denied; any item with a reason → partial; otherwise complete.
 *
 * An appeal's lines that re-open a denied or cut line of the claim it appeals (sandbox/appeals.ts,
 * docs/decisions/081) are not run through these rules: overturned → eligible = submitted, patient
 * share = copay% (no annual-limit cap: the payer reverses its own decision); upheld → the prior
 * decision again. Either way only the benefit above what the prior decision paid is consumed.
 */

export const PREAUTH_VALIDITY_DAYS = 90;

/** Consumption keys (not benefit categories) of what a claim met of the annual deductible and paid toward the out-of-pocket maximum. */
export const DEDUCTIBLE_CONSUMED = "annual:deductible";
export const OUT_OF_POCKET_CONSUMED = "annual:out-of-pocket";

/** A coverage's annual terms in a year: its limits and what adjudicated claims met of them. */
export function annualTermsOf(coverage: CoverageDef, year: number, consumed: (category: string) => number): AnnualTerms {
  const limits = annualLimitsOf(coverage);
  return {
    ...(limits.deductible !== undefined ? { deductibleMinor: limits.deductible, deductibleMetMinor: (limits.deductibleMet ?? 0) + consumed(DEDUCTIBLE_CONSUMED) } : {}),
    ...(limits.outOfPocketMax !== undefined ? { outOfPocketMaxMinor: limits.outOfPocketMax, outOfPocketPaidMinor: (limits.outOfPocketPaid ?? 0) + consumed(OUT_OF_POCKET_CONSUMED) } : {}),
  };
}

export interface ItemResult {
  sequence: number;
  code: string;
  category: string;
  submitted: number;
  eligible: number;
  /** Patient share: eligible − benefit (copay plus anything above the remaining limit). */
  copay: number;
  /** Part of the patient share that went to the annual deductible. */
  deductible?: number;
  benefit: number;
  reason: AdjudicationReasonCode | undefined;
  denied: boolean;
  /** Units the payer approves (the quantity unless a limit cut it; 0 when denied). */
  approvedQuantity: number;
}

export interface AdjudicationResult {
  status: "complete" | "partial" | "denied";
  items: ItemResult[];
  consumption: Consumption[];
  disposition: string;
  totals: { submitted: number; eligible: number; copay: number; benefit: number };
}

export interface AdjudicationContext {
  now: number;
  reference: ReferenceData;
  consumed(coverageId: string, category: string, year: number): number;
  findPreAuth(ref: string): ClaimRecord | undefined;
  /** The appeal ruling on an item, when the claim appeals a decided one (sandbox/appeals.ts). */
  appeal?: (item: ValidatedItem) => LineRuling | undefined;
}

export function isCoverageInForce(coverage: CoverageDef, date: string, now: number): boolean {
  const period = coveragePeriod(coverage, new Date(now));
  return date >= period.start && date <= period.end;
}

function benefitLine(coverage: CoverageDef, category: string): BenefitLine | undefined {
  return coverage.benefits.find((b) => b.category === category);
}

/** The approved amount of a matching prior authorization for this item, or undefined. */
export function authorizedAmount(claim: ValidatedClaim, item: ValidatedItem, ctx: AdjudicationContext): number | undefined {
  let best: number | undefined;
  for (const ref of claim.preAuthRefs) {
    const pa = ctx.findPreAuth(ref);
    if (!pa || pa.use !== "preauthorization" || pa.patientId !== claim.patientId) continue;
    if (pa.status !== "complete" && pa.status !== "partial") continue;
    const period = pa.response.preAuthPeriod;
    if (period?.start && item.servicedDate < period.start.slice(0, 10)) continue;
    if (period?.end && item.servicedDate > period.end.slice(0, 10)) continue;
    for (const paItem of pa.claim.item ?? []) {
      if (paItem.productOrService.coding?.[0]?.code !== item.code) continue;
      const adjudicated = pa.response.item?.find((r) => r.itemSequence === paItem.sequence);
      const eligible = adjudicated?.adjudication.find((a) => a.category.coding?.[0]?.code === "eligible")?.amount?.value;
      if (typeof eligible !== "number" || eligible <= 0) continue;
      const minor = Math.round(eligible * 100);
      best = best === undefined ? minor : Math.max(best, minor);
    }
  }
  return best;
}

export function adjudicate(claim: ValidatedClaim, ctx: AdjudicationContext): AdjudicationResult {
  const { coverage } = claim;
  const year = new Date(ctx.now).getUTCFullYear();
  // What earlier items of this same claim used: benefit per category, deductible, out-of-pocket.
  const ledger = newShareLedger();
  const spentHere = ledger.benefitSpent;
  const annual = annualTermsOf(coverage, year, (key) => ctx.consumed(coverage.id, key, year));
  const items: ItemResult[] = [];

  for (const item of claim.items) {
    const category = item.entry.category;
    const deny = (reason: AdjudicationReasonCode): ItemResult => ({
      sequence: item.sequence,
      code: item.code,
      category,
      submitted: item.submitted,
      eligible: 0,
      copay: 0,
      benefit: 0,
      reason,
      denied: true,
      approvedQuantity: 0,
    });
    const ruling = ctx.appeal?.(item);
    if (ruling) {
      const { prior } = ruling;
      const eligible = ruling.kind === "overturned" ? item.submitted : Math.min(prior.eligible, item.submitted);
      const benefit = ruling.kind === "overturned" ? eligible - percentOf(eligible, benefitLine(coverage, category)?.copayPercent ?? 0) : Math.min(prior.benefit, eligible);
      const denied = ruling.kind === "upheld" && prior.denied;
      items.push({ sequence: item.sequence, code: item.code, category, submitted: item.submitted, eligible, copay: eligible - benefit, benefit, reason: ruling.kind === "upheld" ? prior.reason : undefined, denied, approvedQuantity: denied ? 0 : item.quantity });
      spentHere.set(category, (spentHere.get(category) ?? 0) + Math.max(0, benefit - prior.benefit));
      continue;
    }
    if (!isCoverageInForce(coverage, item.servicedDate, ctx.now)) {
      items.push(deny("coverage-inactive"));
      continue;
    }
    const line = benefitLine(coverage, category);
    if (item.entry.excluded || !line) {
      items.push(deny("ar001"));
      continue;
    }
    const contract = contractRowFor(ctx.reference, coverage, item.system, item.code, item.servicedDate);
    const includesOf = (other: typeof item) => contractRowFor(ctx.reference, coverage, other.system, other.code, other.servicedDate)?.includes ?? other.entry.includes ?? [];
    const packaged = claim.items.some((other) => other !== item && other.system === item.system && includesOf(other).includes(item.code));
    if (packaged) {
      items.push({ sequence: item.sequence, code: item.code, category, submitted: item.submitted, eligible: 0, copay: 0, benefit: 0, reason: "package-included", denied: false, approvedQuantity: item.quantity });
      continue;
    }
    const approvedQuantity = approvedQuantityOf(item);
    let cap = (contract?.priceMinor ?? item.entry.price) * approvedQuantity;
    if (claim.use === "claim" && (item.entry.requiresPreauth || contract?.authorizationRequired)) {
      const authorized = authorizedAmount(claim, item, ctx);
      // An authorization the payer gave offline (its reference and date on the claim) is honoured as given.
      if (authorized === undefined && !claim.offlineAuthorized) {
        items.push(deny("preauth-required"));
        continue;
      }
      if (authorized !== undefined) cap = Math.min(cap, authorized);
    }
    let reason: AdjudicationReasonCode | undefined = approvedQuantity < item.quantity ? "quantity-limit" : undefined;
    const eligible = Math.min(item.submitted, cap);
    if (eligible < item.submitted) reason ??= "price-list";
    const remaining = Math.max(0, line.allowed - line.used - ctx.consumed(coverage.id, category, year));
    const split = splitEligible(eligible, { category, copayPercent: line.copayPercent, remainingMinor: remaining }, annual, ledger);
    if (split.benefitCapped) reason ??= "ar002";
    items.push({ sequence: item.sequence, code: item.code, category, submitted: item.submitted, eligible, copay: split.patientMinor, ...(split.deductibleMinor > 0 ? { deductible: split.deductibleMinor } : {}), benefit: split.payerMinor, reason, denied: false, approvedQuantity });
  }

  const totals = items.reduce(
    (t, i) => ({ submitted: t.submitted + i.submitted, eligible: t.eligible + i.eligible, copay: t.copay + i.copay, benefit: t.benefit + i.benefit }),
    { submitted: 0, eligible: 0, copay: 0, benefit: 0 },
  );
  const deniedCount = items.filter((i) => i.denied).length;
  const withReason = items.filter((i) => i.reason !== undefined).length;
  const status: AdjudicationResult["status"] = items.length > 0 && deniedCount === items.length ? "denied" : withReason > 0 ? "partial" : "complete";

  const consumption: Consumption[] =
    claim.use === "claim"
      ? [...spentHere.entries(), [DEDUCTIBLE_CONSUMED, ledger.deductibleApplied] as const, [OUT_OF_POCKET_CONSUMED, ledger.outOfPocketAdded] as const]
          .filter(([, amount]) => amount > 0)
          .map(([category, amount]) => ({ coverageId: coverage.id, category, amount, year }))
      : [];

  return { status, items, consumption, disposition: disposition(claim.use, status, items), totals };
}

/** Medications: the quantity within the code's quantity limit and days-supply limit (at least 1). */
export function approvedQuantityOf(item: ValidatedItem): number {
  let approved = item.quantity;
  if (item.entry.maxQuantity !== undefined) approved = Math.min(approved, item.entry.maxQuantity);
  if (item.entry.maxDaysSupply !== undefined && item.daysSupply !== undefined && item.daysSupply > item.entry.maxDaysSupply) {
    approved = Math.min(approved, Math.max(1, Math.floor((item.quantity * item.entry.maxDaysSupply) / item.daysSupply)));
  }
  return approved;
}

function disposition(use: "claim" | "preauthorization", status: AdjudicationResult["status"], items: ItemResult[]): string {
  if (status === "complete") return writeDisposition({ kind: "fixed", key: use === "preauthorization" ? "preauthComplete" : "claimComplete" });
  const reasons = [...new Set(items.map((i) => i.reason).filter((r): r is AdjudicationReasonCode => r !== undefined))];
  if (status === "denied") return writeDisposition({ kind: "denied", use, reasons });
  const affected = items.filter((i) => i.reason !== undefined).length;
  return writeDisposition({ kind: "partial", use, affected, items: items.length, reasons });
}

export function preAuthPeriod(now: number): { start: string; end: string } {
  const start = isoDate(now);
  const end = isoDate(now + PREAUTH_VALIDITY_DAYS * 24 * 60 * 60 * 1000);
  return { start, end };
}
