import type {
  Bundle,
  Claim,
  ClaimResponse,
  ClaimResponseItemAdjudication,
  CoverageEligibilityResponse,
  CoverageEligibilityResponseInsuranceItem,
  Resource,
} from "@medplum/fhirtypes";
import {
  NATIONAL_EXCHANGE,
  ADJUDICATION_CATEGORIES,
  ADJUDICATION_REASONS,
  BENEFIT_CATEGORIES,
  BENEFIT_TYPES,
  claimProcessingStatusExtension,
  CODE_SYSTEMS,
  FIXED_DISPOSITIONS,
  PLATFORM_BENEFIT_TYPE_SYSTEM,
  IDENTIFIER_SYSTEMS,
  money,
  organizationReference,
  PAYMENT_TYPES,
  SANDBOX_ADJUDICATION_REASON_SYSTEM,
  type AdjudicationCategoryCode,
  type AdjudicationReasonCode,
  type AnnualTerms,
  type BenefitCategoryCode,
  type ClaimProcessingStatus,
} from "../lib/fhir";
import { type AdjudicationResult, annualTermsOf, preAuthPeriod } from "./adjudication";
import { isoDate } from "./clock";
import { coveragePeriod, type PriceListEntry, type ReferenceData } from "./reference-data";
import type { ClaimRecord } from "./store";
import type { ValidatedEligibility } from "./validation";

/** Builders of the FHIR resources the sandbox answers with. */

function categoryConcept(code: BenefitCategoryCode) {
  return { coding: [{ system: CODE_SYSTEMS.benefitCategory, code, display: BENEFIT_CATEGORIES[code].en }], text: BENEFIT_CATEGORIES[code].en };
}

/**
 * The coverage's annual deductible and out-of-pocket maximum as R4 says benefits: a plan-level
 * item (category 30, "Health Benefit Plan Coverage", individual, annual) with a `deductible`
 * benefit (HL7 benefit-type) and an `out-of-pocket-maximum` one (the platform's system: R4 has no
 * code for it), allowedMoney the limit and usedMoney what adjudicated claims met (docs/decisions/091).
 */
function annualItem(annual: AnnualTerms): CoverageEligibilityResponseInsuranceItem | undefined {
  const benefit = [];
  if (annual.deductibleMinor !== undefined) {
    benefit.push({
      type: { coding: [{ system: CODE_SYSTEMS.benefitType, code: "deductible", display: BENEFIT_TYPES.deductible.en }] },
      allowedMoney: money(annual.deductibleMinor),
      usedMoney: money(Math.min(annual.deductibleMetMinor ?? 0, annual.deductibleMinor)),
    });
  }
  if (annual.outOfPocketMaxMinor !== undefined) {
    benefit.push({
      type: { coding: [{ system: PLATFORM_BENEFIT_TYPE_SYSTEM, code: "out-of-pocket-maximum", display: BENEFIT_TYPES["out-of-pocket-maximum"].en }] },
      allowedMoney: money(annual.outOfPocketMaxMinor),
      usedMoney: money(Math.min(annual.outOfPocketPaidMinor ?? 0, annual.outOfPocketMaxMinor)),
    });
  }
  if (benefit.length === 0) return undefined;
  return {
    category: categoryConcept("30"),
    excluded: false,
    name: BENEFIT_CATEGORIES["30"].en,
    unit: { coding: [{ system: CODE_SYSTEMS.benefitUnit, code: "individual" }] },
    term: { coding: [{ system: CODE_SYSTEMS.benefitTerm, code: "annual" }] },
    benefit,
  };
}

export function eligibilityResponse(
  v: ValidatedEligibility,
  ctx: {
    id: string;
    requestId: string;
    now: number;
    reference: ReferenceData;
    consumed: (category: string, year: number) => number;
    /** auth-requirements: the priced services of the protocol's code systems (CPT in the spec's REST, the exchange's own in its style). */
    services?: readonly PriceListEntry[];
  },
): CoverageEligibilityResponse {
  const { coverage, request } = v;
  const now = new Date(ctx.now);
  const servicedDate = request.servicedDate ?? v.period.start ?? isoDate(ctx.now);
  const period = coveragePeriod(coverage, now);
  // In force when the coverage covers the whole requested period (a date is a one-day period).
  const inforce = v.period.start >= period.start && v.period.end <= period.end;
  const year = Number(period.start.slice(0, 4));
  const wantsBenefits = request.purpose.includes("benefits");

  let items: CoverageEligibilityResponseInsuranceItem[] | undefined;
  if (inforce && wantsBenefits) {
    const categories = v.categories ?? coverage.benefits.map((b) => b.category);
    items = categories.map((code) => {
      const line = coverage.benefits.find((b) => b.category === code);
      if (!line) return { category: categoryConcept(code), excluded: true, name: `${BENEFIT_CATEGORIES[code].en} (not covered)` };
      const used = line.used + ctx.consumed(code, year);
      return {
        category: categoryConcept(code),
        excluded: false,
        name: BENEFIT_CATEGORIES[code].en,
        authorizationRequired: [...ctx.reference.priceList.values()].some((p) => p.category === code && p.requiresPreauth),
        benefit: [
          {
            type: { coding: [{ system: CODE_SYSTEMS.benefitType, code: "benefit", display: BENEFIT_TYPES.benefit.en }] },
            allowedMoney: money(line.allowed),
            usedMoney: money(Math.min(used, line.allowed)),
          },
          {
            type: { coding: [{ system: CODE_SYSTEMS.benefitType, code: "copay-percent", display: BENEFIT_TYPES["copay-percent"].en }] },
            allowedUnsignedInt: line.copayPercent,
          },
        ],
      };
    });
    const annual = annualItem(annualTermsOf(coverage, year, (key) => ctx.consumed(key, year)));
    if (annual) items.push(annual);
  }
  // auth-requirements (guide 7.1, Table 36): which services of the asked categories need a prior
  // authorization — one item per such service, with its code and authorizationRequired.
  if (inforce && request.purpose.includes("auth-requirements")) {
    const asked = v.categories ?? coverage.benefits.map((b) => b.category);
    const needing = (ctx.services ?? [...ctx.reference.priceList.values()]).filter((p) => p.requiresPreauth && !p.excluded && asked.includes(p.category));
    items = [
      ...(items ?? []),
      ...needing.map((p) => ({
        category: categoryConcept(p.category),
        productOrService: { coding: [{ system: p.system ?? CODE_SYSTEMS.cpt, code: p.code, display: p.description }] },
        excluded: false,
        name: p.description,
        authorizationRequired: true,
      })),
    ];
  }

  return {
    resourceType: "CoverageEligibilityResponse",
    id: ctx.id,
    meta: { versionId: "1", lastUpdated: now.toISOString() },
    identifier: [{ system: IDENTIFIER_SYSTEMS.platformResponse, value: ctx.id }],
    status: "active",
    purpose: request.purpose,
    patient: { reference: request.patient.reference },
    ...(v.askedPeriod ? { servicedPeriod: { start: v.period.start, end: v.period.end } } : { servicedDate }),
    created: now.toISOString(),
    ...(request.provider ? { requestor: { reference: request.provider.reference } } : {}),
    request: { reference: `CoverageEligibilityRequest/${ctx.requestId}` },
    outcome: "complete",
    disposition: FIXED_DISPOSITIONS[inforce ? "coverageInForce" : "coverageInactive"],
    insurer: organizationReference(coverage.payerId),
    insurance: [
      {
        coverage: { reference: `Coverage/${coverage.id}` },
        inforce,
        benefitPeriod: { start: period.start, end: period.end },
        ...(items ? { item: items } : {}),
      },
    ],
  };
}

/**
 * HL7's adjudication-reason system defines only ar001 and ar002; the sandbox's own rules
 * (price-list, preauth-required, coverage-inactive) are coded in the platform's own system.
 */
export function reasonSystem(reason: AdjudicationReasonCode): string {
  return reason === "ar001" || reason === "ar002" ? CODE_SYSTEMS.adjudicationReason : SANDBOX_ADJUDICATION_REASON_SYSTEM;
}

function adjudicationEntry(category: AdjudicationCategoryCode, amount: number, reason?: AdjudicationReasonCode): ClaimResponseItemAdjudication {
  return {
    category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: category, display: ADJUDICATION_CATEGORIES[category].en }] },
    ...(reason ? { reason: { coding: [{ system: reasonSystem(reason), code: reason, display: ADJUDICATION_REASONS[reason].en }] } } : {}),
    amount: money(amount),
  };
}

/** An adjudication (or total) in the exchange's `patientShare` category. */
function patientShareEntry(amount: number): ClaimResponseItemAdjudication & { amount: NonNullable<ClaimResponseItemAdjudication["amount"]> } {
  return { category: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code: "patientShare", display: "Patient Share" }] }, amount: money(amount) };
}

interface ResponseBase {
  responseId: string;
  claim: Claim;
  claimId: string;
  payerId: string;
  now: number;
  version: number;
}

function responseSkeleton(b: ResponseBase, status: ClaimProcessingStatus): ClaimResponse {
  return {
    resourceType: "ClaimResponse",
    id: b.responseId,
    meta: { versionId: String(b.version), lastUpdated: new Date(b.now).toISOString() },
    extension: [claimProcessingStatusExtension(status)],
    identifier: [{ system: IDENTIFIER_SYSTEMS.platformResponse, value: b.responseId }],
    status: "active",
    type: b.claim.type,
    use: b.claim.use,
    patient: { reference: b.claim.patient.reference },
    created: new Date(b.now).toISOString(),
    insurer: organizationReference(b.payerId),
    requestor: { reference: b.claim.provider.reference },
    request: { reference: `Claim/${b.claimId}` },
    outcome: "queued",
  };
}

export function queuedClaimResponse(b: ResponseBase, status: "queued" | "pended"): ClaimResponse {
  return {
    ...responseSkeleton(b, status),
    outcome: "queued",
    disposition: FIXED_DISPOSITIONS[status === "queued" ? "queued" : "pended"],
  };
}

export function adjudicatedClaimResponse(b: ResponseBase, result: AdjudicationResult, preAuthRef: string | undefined): ClaimResponse {
  const total = (category: AdjudicationCategoryCode, amount: number) => ({
    category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: category }] },
    amount: money(amount),
  });
  const response: ClaimResponse = {
    ...responseSkeleton(b, result.status),
    outcome: result.status === "partial" ? "partial" : "complete",
    disposition: result.disposition,
    item: result.items.map((i) => ({
      itemSequence: i.sequence,
      adjudication: [
        adjudicationEntry("submitted", i.submitted),
        adjudicationEntry("eligible", i.eligible),
        adjudicationEntry("copay", i.copay),
        ...(i.deductible ? [adjudicationEntry("deductible", i.deductible)] : []),
        adjudicationEntry("benefit", i.benefit, i.reason),
        // The patient's share stated in the exchange's own category (guide v2.7 Table 29): the clinic
        // shows it as stated, never worked out from eligible and benefit (docs/decisions/098).
        patientShareEntry(i.copay),
        // The exchange's approved quantity where a limit cut the units billed (docs/decisions/071).
        ...(i.reason === "quantity-limit" ? [{ category: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code: "approved-quantity" }] }, value: i.approvedQuantity }] : []),
      ],
    })),
    total: [
      total("submitted", result.totals.submitted),
      total("eligible", result.totals.eligible),
      total("copay", result.totals.copay),
      total("benefit", result.totals.benefit),
      patientShareEntry(result.totals.copay),
    ],
  };
  if (b.claim.use === "preauthorization") {
    if (preAuthRef) {
      response.preAuthRef = preAuthRef;
      response.preAuthPeriod = preAuthPeriod(b.now);
    }
  } else {
    response.payment = {
      type: { coding: [{ system: CODE_SYSTEMS.paymentType, code: "complete", display: PAYMENT_TYPES.complete.en }] },
      date: isoDate(b.now),
      amount: money(result.totals.benefit),
    };
  }
  return response;
}

/** The stored Claim as GET /Claim/{id} returns it: as received, with id, meta and processing status. */
export function claimView(record: ClaimRecord): Claim {
  const others = (record.claim.extension ?? []).filter((e) => e.url !== claimProcessingStatusExtension(record.status).url);
  return {
    ...record.claim,
    id: record.id,
    meta: { versionId: String(record.version), lastUpdated: record.lastUpdated },
    extension: [...others, claimProcessingStatusExtension(record.status)],
  };
}

export function searchset<T extends Resource>(baseUrl: string, selfUrl: string, resources: T[]): Bundle<T> {
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: resources.length,
    link: [{ relation: "self", url: selfUrl }],
    entry: resources.map((resource) => ({
      fullUrl: `${baseUrl}/${resource.resourceType}/${resource.id ?? ""}`,
      resource,
      search: { mode: "match" as const },
    })),
  };
}
