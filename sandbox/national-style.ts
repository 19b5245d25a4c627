import type {
  Claim,
  ClaimResponse,
  ClaimResponseAddItem,
  ClaimResponseItem,
  ClaimResponseItemAdjudication,
  ClaimResponseProcessNote,
  CoverageEligibilityResponse,
  CoverageEligibilityResponseInsuranceItem,
  Extension,
  Reference,
} from "@medplum/fhirtypes";
import {
  ADJUDICATION_REASONS,
  BENEFIT_CATEGORIES,
  CLAIM_PROCESSING_STATUS_EXTENSION,
  CODE_SYSTEMS,
  NATIONAL_EXCHANGE,
  PLATFORM_URI_BASE,
  isBenefitCategoryCode,
  money,
  toMinorUnits,
  writeNote,
  type AdjudicationOutcome,
  type AdjudicationReasonCode,
} from "../lib/fhir";

/**
 * The `national` answer style (sandbox/answer-style.ts): rewrites an answer the sandbox built in its
 * default form into the form a national exchange uses. The adjudication is the same — every amount
 * comes from the default answer — only the way it is written changes:
 *
 * ClaimResponse
 *  - references absolute (`<base>/Patient/…`, the requestor with `/_history/1`); `request` by the
 *    clinic's Claim identifier only; `insurer` by the payer's licence identifier only;
 *  - the adjudication outcome as an extension on the resource and on every item and added item
 *    (valueCodeableConcept: approved | rejected | partial | pended), no processing-status extension;
 *  - an `approved-quantity` adjudication (its number in `adjudication.value`) on every item;
 *  - an item reduced to the price list is answered as a substitution: the billed line is rejected
 *    (benefit 0, reason kept) and an `addItem` carries the contracted line with the amounts the
 *    engine decided for it (so the totals are unchanged);
 *  - `processNote` per reason (English) and the overall result (Arabic), with type and language;
 *    items point to their notes with `noteNumber`; `total[]` and `insurance[]` as in the default;
 *  - an `episode` extension the portal does not interpret.
 *
 * CoverageEligibilityResponse
 *  - absolute references; every item in-network (`in`), `individual`, `annual`; an out-of-network
 *    item for the first category (half the limit, twice the copay); a plan-level lifetime item
 *    whose benefit is `allowedString: "unlimited"`; a visit count (`allowedUnsignedInt`) for
 *    consultations; what must accompany an authorization request where one is required.
 */

export interface NationalContext {
  /** The national FHIR base the absolute references name, e.g. `https://localhost:9443/fhir`. */
  base: string;
  payer: { id: string; license?: string; name?: string };
  providerOrgId: string;
}

export const NATIONAL_EPISODE_EXTENSION = `${PLATFORM_URI_BASE}/StructureDefinition/episode`;
export const NATIONAL_EPISODE_SYSTEM = `${PLATFORM_URI_BASE}/identifier/episode`;
const BCP47 = "urn:ietf:bcp:47";

type Json = Record<string, unknown>;

// Typed like the reference it rewrites (`Reference<Patient>` stays `Reference<Patient>`).
function absolute<T extends Reference<never>>(base: string, reference: string | undefined, history = false): T | undefined {
  if (!reference) return undefined;
  // Absolute already, or a contained resource (`#id`: a discovery's Coverage).
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith("#")) return { reference } as T;
  return { reference: `${base}/${reference}${history ? "/_history/1" : ""}` } as T;
}

function outcomeExtension(code: AdjudicationOutcome): Extension {
  return {
    url: NATIONAL_EXCHANGE.adjudicationOutcomeExtension,
    valueCodeableConcept: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationOutcomeSystem, code }] },
  };
}

function approvedQuantity(value: number): ClaimResponseItemAdjudication {
  return { category: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code: "approved-quantity" }] }, value };
}

const codeOf = (concept: unknown): string | undefined => ((concept as Json | undefined)?.coding as Json[] | undefined)?.[0]?.code as string | undefined;

interface LineFacts {
  submitted: number;
  eligible: number;
  copay: number;
  benefit: number;
  reason?: AdjudicationReasonCode;
}

function factsOf(item: ClaimResponseItem): LineFacts {
  const amount = (category: string) => toMinorUnits(item.adjudication.find((a) => codeOf(a.category) === category)?.amount?.value ?? 0) ?? 0;
  const reason = item.adjudication.map((a) => codeOf(a.reason)).find((r): r is string => r !== undefined);
  return {
    submitted: amount("submitted"),
    eligible: amount("eligible"),
    copay: amount("copay"),
    benefit: amount("benefit"),
    ...(reason && reason in ADJUDICATION_REASONS ? { reason: reason as AdjudicationReasonCode } : {}),
  };
}

const DENIALS = new Set<string>(["ar001", "coverage-inactive", "preauth-required"]);

function itemOutcome(f: LineFacts): AdjudicationOutcome {
  if (f.reason && DENIALS.has(f.reason)) return "rejected";
  if (f.eligible === 0 && f.benefit === 0) return "rejected";
  return f.reason ? "partial" : "approved";
}

function overallOutcome(response: ClaimResponse): AdjudicationOutcome | undefined {
  const status = response.extension?.find((e) => e.url === CLAIM_PROCESSING_STATUS_EXTENSION)?.valueCode;
  switch (status) {
    case "complete":
      return "approved";
    case "partial":
      return "partial";
    case "denied":
      return "rejected";
    case "pended":
      return "pended";
    default:
      return undefined;
  }
}


export function nationalClaimResponse(response: ClaimResponse, claim: Claim, ctx: NationalContext): ClaimResponse {
  const { base } = ctx;
  const claimItems = new Map((claim.item ?? []).map((i) => [i.sequence, i]));
  const notes: ClaimResponseProcessNote[] = [];
  const note = (text: string, language: "en" | "ar", type: "display" | "print" = "display"): number => {
    const number = notes.length + 1;
    notes.push({ number, type, text, language: { coding: [{ system: BCP47, code: language }] } });
    return number;
  };

  const items: ClaimResponseItem[] = [];
  const addItems: ClaimResponseAddItem[] = [];
  for (const item of response.item ?? []) {
    const f = factsOf(item);
    const source = claimItems.get(item.itemSequence);
    const quantity = source?.quantity?.value ?? 1;
    const noteNumbers = f.reason ? [note(writeNote({ kind: "itemReason", item: item.itemSequence, reason: f.reason }), "en")] : [];
    if (f.reason === "price-list" && source) {
      // Substitution: the billed line is rejected, the contracted line is added with the engine's amounts.
      items.push({
        itemSequence: item.itemSequence,
        extension: [outcomeExtension("rejected")],
        noteNumber: noteNumbers,
        adjudication: [
          item.adjudication.find((a) => codeOf(a.category) === "submitted")!,
          { ...item.adjudication.find((a) => codeOf(a.category) === "benefit")!, amount: money(0) },
          approvedQuantity(0),
        ],
      });
      // Nothing paid (the remaining benefit was used up): granted in part, no approved quantity,
      // so the portal calls it "approved, nothing paid" rather than approved.
      const paid = f.benefit > 0;
      addItems.push({
        extension: [outcomeExtension(paid ? "approved" : "partial")],
        itemSequence: [item.itemSequence],
        productOrService: source.productOrService,
        ...(source.servicedDate ? { servicedDate: source.servicedDate } : {}),
        quantity: { value: quantity },
        unitPrice: money(Math.round(f.eligible / quantity)),
        net: money(f.eligible),
        noteNumber: [note(writeNote({ kind: "itemReplaced", item: item.itemSequence }), "en")],
        adjudication: [
          ...item.adjudication.filter((a) => codeOf(a.category) !== "submitted").map((a) => ({ category: a.category, ...(a.amount ? { amount: a.amount } : {}) })),
          ...(paid ? [approvedQuantity(quantity)] : []),
        ],
      });
      continue;
    }
    const outcome = itemOutcome(f);
    items.push({
      itemSequence: item.itemSequence,
      extension: [outcomeExtension(outcome)],
      ...(noteNumbers.length ? { noteNumber: noteNumbers } : {}),
      // Approved quantity only where the payer pays: a granted line with benefit 0 stays "not paid".
      // A limit already set the approved quantity (quantity-limit): it stays as the engine wrote it.
      adjudication: item.adjudication.some((a) => codeOf(a.category) === "approved-quantity")
        ? item.adjudication
        : [...item.adjudication, ...(outcome === "rejected" ? [approvedQuantity(0)] : f.benefit > 0 ? [approvedQuantity(quantity)] : [])],
    });
  }

  const overall = overallOutcome(response);
  if (overall && overall !== "pended" && response.item?.length) note(writeNote({ kind: "overall", outcome: overall }), "ar", "print");
  const identifier = claim.identifier?.[0];
  const others = (response.extension ?? []).filter((e) => e.url !== CLAIM_PROCESSING_STATUS_EXTENSION);
  const national: ClaimResponse = {
    ...response,
    extension: [
      ...others,
      ...(overall ? [outcomeExtension(overall)] : []),
      { url: NATIONAL_EPISODE_EXTENSION, valueIdentifier: { system: NATIONAL_EPISODE_SYSTEM, value: `EP-${(claim.id ?? "").slice(0, 8).toUpperCase()}` } },
    ],
    patient: absolute(base, response.patient.reference) ?? response.patient,
    insurer: ctx.payer.license
      ? { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: ctx.payer.license }, ...(ctx.payer.name ? { display: ctx.payer.name } : {}) }
      : (absolute(base, response.insurer?.reference) ?? response.insurer),
    requestor: absolute(base, response.requestor?.reference, true) ?? response.requestor,
    request: identifier ? { type: "Claim", identifier: { system: identifier.system, value: identifier.value } } : response.request,
    insurance: (claim.insurance ?? []).map((i) => ({
      sequence: i.sequence,
      focal: i.focal,
      coverage: absolute(base, i.coverage.reference, true) ?? i.coverage,
    })),
  };
  delete national.item;
  if (items.length) national.item = items;
  if (addItems.length) national.addItem = addItems;
  if (notes.length) national.processNote = notes;
  return national;
}

function benefitConcept(system: string, code: string) {
  return { coding: [{ system, code }] };
}

export function nationalEligibilityResponse(response: CoverageEligibilityResponse, ctx: NationalContext & { preauthCategories: ReadonlySet<string> }): CoverageEligibilityResponse {
  const { base } = ctx;
  const qualify = (item: CoverageEligibilityResponseInsuranceItem, network: "in" | "out", unit = "individual", term = "annual") => ({
    ...item,
    network: benefitConcept(CODE_SYSTEMS.benefitNetwork, network),
    unit: benefitConcept(CODE_SYSTEMS.benefitUnit, unit),
    term: benefitConcept(CODE_SYSTEMS.benefitTerm, term),
  });
  return {
    ...response,
    patient: absolute(base, response.patient.reference) ?? response.patient,
    insurer: absolute(base, response.insurer.reference, true) ?? response.insurer,
    ...(response.requestor ? { requestor: absolute(base, response.requestor.reference, true) ?? response.requestor } : {}),
    ...(response.request ? { request: absolute(base, response.request.reference) ?? response.request } : {}),
    insurance: (response.insurance ?? []).map((insurance) => {
      const items = insurance.item;
      if (!items) return { ...insurance, coverage: absolute(base, insurance.coverage.reference) ?? insurance.coverage };
      const national: CoverageEligibilityResponseInsuranceItem[] = items.map((item) => {
        if (item.excluded) return qualify(item, "in");
        const code = codeOf(item.category) ?? "";
        const extra = code === "3" ? [{ type: benefitConcept(CODE_SYSTEMS.benefitType, "visit"), allowedUnsignedInt: 12 }] : [];
        const supporting = ctx.preauthCategories.has(code)
          ? { authorizationSupporting: [{ coding: [{ system: CODE_SYSTEMS.supportingInfoCategory, code: "attachment" }], text: "Medical report" }] }
          : {};
        return { ...qualify(item, "in"), ...supporting, benefit: [...(item.benefit ?? []), ...extra] };
      });
      const first = items.find((i) => !i.excluded && i.benefit?.some((b) => b.allowedMoney));
      if (first) {
        const limit = first.benefit?.find((b) => b.allowedMoney)?.allowedMoney?.value ?? 0;
        const copay = first.benefit?.find((b) => b.allowedUnsignedInt !== undefined)?.allowedUnsignedInt ?? 0;
        const code = codeOf(first.category) ?? "";
        national.push(
          qualify(
            {
              category: first.category,
              name: `${isBenefitCategoryCode(code) ? BENEFIT_CATEGORIES[code].en : code} (out of network)`,
              excluded: false,
              benefit: [
                { type: benefitConcept(CODE_SYSTEMS.benefitType, "benefit"), allowedMoney: money(Math.floor(((toMinorUnits(limit) ?? 0) / 2))), usedMoney: money(0) },
                { type: benefitConcept(CODE_SYSTEMS.benefitType, "copay-percent"), allowedUnsignedInt: Math.min(100, copay * 2) },
              ],
            },
            "out",
          ),
        );
        national.push(
          qualify(
            {
              category: { coding: [{ system: CODE_SYSTEMS.benefitCategory, code: "30", display: BENEFIT_CATEGORIES["30"].en }] },
              name: "Lifetime maximum",
              excluded: false,
              benefit: [{ type: benefitConcept(CODE_SYSTEMS.benefitType, "benefit"), allowedString: "unlimited" }],
            },
            "in",
            "individual",
            "lifetime",
          ),
        );
      }
      return { ...insurance, coverage: absolute(base, insurance.coverage.reference) ?? insurance.coverage, item: national };
    }),
  };
}
