import type { CoverageEligibilityResponse } from "@medplum/fhirtypes";
import { CODE_SYSTEMS, PLATFORM_BENEFIT_TYPE_SYSTEM, PLATFORM_CURRENCY, isBenefitCategoryCode } from "../systems";
import { type Read } from "./errors";
import { collectExtensions, type ExtensionView } from "./extensions";
import { readIdentifier, readReference, referenceId, type IdentifierView, type ReferenceView } from "./reference";
import { checkStructure } from "./structure";
import { list, num, readCoded, readMoney, readPeriod, text, type CodedView, type MoneyView, type PeriodView } from "./values";
import { EXTENSIONS } from "../nphies/extensions";
import { SITE_ELIGIBILITY, SYSTEMS } from "../nphies/terminology";

/** An amount in minor units (halalas) with its currency. */
export interface MinorMoney {
  minor: number;
  currency: string;
}

/** allowed[x] / used[x] of a benefit as given: Money, unsignedInt or string ("unlimited", "as needed"). */
export interface BenefitValueView {
  money?: MoneyView;
  count?: number;
  text?: string;
}

export interface BenefitView {
  type?: CodedView;
  allowed?: BenefitValueView;
  used?: BenefitValueView;
}

export interface BenefitCategoryView {
  /** Standard benefit-category code (`1`, `3`, `F6` …); unknown codes are kept as they came. */
  code: string;
  /** True when the code is one of the standard categories (a name in both languages exists). */
  known: boolean;
  /** The payer's own label, when it sent one. */
  payerName?: string;
  description?: string;
  /** A specific service rather than a category. */
  productOrService?: CodedView;
  /** in | out (benefit-network), as given. */
  network?: string;
  /** individual | family */
  unit?: string;
  /** annual | day | lifetime … */
  term?: string;
  /** The plan does not cover this category. */
  excluded: boolean;
  authorizationRequired: boolean;
  /** What must accompany an authorization request. */
  authorizationSupporting: CodedView[];
  authorizationUrl?: string;
  /** Every benefit of the item, as given. */
  benefits: BenefitView[];
  allowed?: MinorMoney;
  used?: MinorMoney;
  /** allowed − used, never below zero; absent when allowed is unknown. */
  remaining?: MinorMoney;
  /** Share of the allowed amount already used, 0–100 (rounded down); absent without an allowed amount. */
  usedPercent?: number;
  /** The headline benefit is "unlimited" or another text rather than an amount. */
  allowedText?: string;
  copayPercent?: number;
  /** The item carries only the annual deductible / out-of-pocket maximum (a plan-level item), no category benefit. */
  annualOnly?: boolean;
}

/** An annual amount of the coverage (deductible, out-of-pocket maximum): the limit, what is used, what is left. */
export interface AnnualAmountView {
  allowed: MinorMoney;
  used: MinorMoney;
  remaining: MinorMoney;
}

export interface InsuranceView {
  /** The Coverage id on the platform (`cov-…`), from `insurance[].coverage`. */
  coverageId?: string;
  coverage?: ReferenceView;
  /** In force here: the payer's `inforce`, and not out of network at the requesting site. */
  inforce: boolean;
  /**
   * The exchange's site eligibility (extension-siteEligibility, site-eligibility codes): an
   * insurance out of network or not eligible at this site is not in force here (decision 075).
   */
  siteEligibility?: { code: string; inForce: boolean };
  benefitPeriod?: PeriodView;
  categories: BenefitCategoryView[];
  /**
   * The annual deductible: a benefit of type `deductible` (HL7 benefit-type) on any item,
   * allowedMoney the deductible, usedMoney what is met (docs/decisions/091).
   */
  deductible?: AnnualAmountView;
  /** The annual out-of-pocket maximum: type `out-of-pocket-maximum` (the platform's benefit-type system; R4 has none). */
  outOfPocket?: AnnualAmountView;
}

/**
 * A coverage the insurer reported on a discovery (guide 7.1, Table 36): the Coverage the answer's
 * insurance names, found contained in the response or among the message's entries. What the desk
 * registers on the patient: insurer, member (policy) number, the plan and class, the network, the
 * period (its end is the expiry) and the patient's co-pay.
 */
export interface DiscoveredCoverageView {
  /** The Coverage id on the exchange (`Coverage/<id>`). */
  coverageId: string;
  /** The payer's Organization id (Coverage.payor). */
  insurerId?: string;
  insurerName?: string;
  /** Member / policy number (Coverage.identifier, else subscriberId). */
  memberId?: string;
  /** The plan (class of type plan): the policy's name. */
  plan?: string;
  /** Coverage.class of type class: it picks the contract's class rows. */
  coverageClass?: string;
  network?: string;
  period?: PeriodView;
  relationship?: string;
  /** costToBeneficiary as a percentage (valueQuantity %), or as an amount. */
  copayPercent?: number;
  copayMoney?: MinorMoney;
  /** The answer says this coverage is in force for the period asked about. */
  inforce: boolean;
}

export interface EligibilityErrorView {
  code?: CodedView;
}

export interface BenefitsView {
  /** Response identifier (the platform's). */
  responseId?: string;
  identifiers: IdentifierView[];
  outcome: string;
  disposition?: string;
  insurerId?: string;
  insurer?: ReferenceView;
  patient?: ReferenceView;
  request?: ReferenceView;
  servicedDate?: string;
  servicedPeriod?: PeriodView;
  created: string;
  purpose: string[];
  /** True when at least one insurance is in force. */
  inforce: boolean;
  /**
   * The payer says in force, but not at this site (its site eligibility: out of network, not
   * eligible here): "in force, not at this site", never "not in force" (decision 075).
   */
  inForceNotAtSite?: boolean;
  insurances: InsuranceView[];
  /** Discovery: the coverages the insurer reported (resolved to their Coverage resources). */
  discovered?: DiscoveredCoverageView[];
  preAuthRef?: string;
  errors: EligibilityErrorView[];
  otherExtensions: ExtensionView[];
  notes: string[];
}

const toMinor = (m: MoneyView | undefined): MinorMoney | undefined =>
  m?.minor !== undefined && m.minor >= 0 ? { minor: m.minor, currency: m.currency ?? PLATFORM_CURRENCY } : undefined;

function benefitValue(node: Record<string, unknown>, prefix: "allowed" | "used"): BenefitValueView | undefined {
  const money = readMoney(node[`${prefix}Money`]);
  if (money) return { money };
  const count = num(node[`${prefix}UnsignedInt`]);
  if (count !== undefined) return { count };
  const given = text(node[`${prefix}String`]);
  if (given) return { text: given };
  return undefined;
}

const ANNUAL_TYPES: Readonly<Record<"deductible" | "outOfPocket", { code: string; systems: readonly string[] }>> = {
  deductible: { code: "deductible", systems: [CODE_SYSTEMS.benefitType] },
  outOfPocket: { code: "out-of-pocket-maximum", systems: [PLATFORM_BENEFIT_TYPE_SYSTEM] },
};
const annualKind = (b: BenefitView): keyof typeof ANNUAL_TYPES | undefined =>
  (Object.keys(ANNUAL_TYPES) as (keyof typeof ANNUAL_TYPES)[]).find((k) => b.type?.code === ANNUAL_TYPES[k].code && (!b.type.system || ANNUAL_TYPES[k].systems.includes(b.type.system)));
const isAnnual = (b: BenefitView) => annualKind(b) !== undefined;

/** The first benefit of the kind on any item of an insurance, as an annual amount (its money in one currency). */
function annualAmount(categories: readonly BenefitCategoryView[], kind: keyof typeof ANNUAL_TYPES): AnnualAmountView | undefined {
  for (const category of categories) {
    const benefit = category.benefits.find((b) => annualKind(b) === kind);
    const allowed = toMinor(benefit?.allowed?.money);
    if (!allowed) continue;
    const used = toMinor(benefit?.used?.money) ?? { minor: 0, currency: allowed.currency };
    if (used.currency !== allowed.currency) continue;
    return { allowed, used, remaining: { minor: Math.max(0, allowed.minor - used.minor), currency: allowed.currency } };
  }
  return undefined;
}

function codeIn(concept: unknown, system: string): string | undefined {
  const coded = readCoded(concept, system);
  return coded?.code ?? coded?.text;
}

function readCategory(item: Record<string, unknown>): BenefitCategoryView {
  const category = readCoded(item.category, CODE_SYSTEMS.benefitCategory);
  const code = category?.code ?? "";
  const benefits: BenefitView[] = list(item.benefit).map((b) => {
    const view: BenefitView = {};
    const type = readCoded(b.type, CODE_SYSTEMS.benefitType);
    if (type) view.type = type;
    const allowed = benefitValue(b, "allowed");
    if (allowed) view.allowed = allowed;
    const used = benefitValue(b, "used");
    if (used) view.used = used;
    return view;
  });
  const view: BenefitCategoryView = {
    code,
    known: isBenefitCategoryCode(code),
    excluded: item.excluded === true,
    authorizationRequired: item.authorizationRequired === true,
    authorizationSupporting: list(item.authorizationSupporting).flatMap((c) => readCoded(c) ?? []),
    benefits,
  };
  if (text(item.name)) view.payerName = item.name as string;
  if (text(item.description)) view.description = item.description as string;
  const service = readCoded(item.productOrService);
  if (service) view.productOrService = service;
  const network = codeIn(item.network, CODE_SYSTEMS.benefitNetwork);
  if (network) view.network = network;
  const unit = codeIn(item.unit, CODE_SYSTEMS.benefitUnit);
  if (unit) view.unit = unit;
  const term = codeIn(item.term, CODE_SYSTEMS.benefitTerm);
  if (term) view.term = term;
  if (text(item.authorizationUrl)) view.authorizationUrl = item.authorizationUrl as string;

  // The headline amount: the "benefit" type, else the first benefit with an allowed amount that
  // is not an annual deductible / out-of-pocket maximum (those are the insurance's, below).
  const isType = (b: BenefitView, c: string) => b.type?.code === c;
  const rest = benefits.filter((b) => !isAnnual(b));
  if (benefits.length > 0 && rest.length === 0) view.annualOnly = true;
  const headline = rest.find((b) => isType(b, "benefit")) ?? rest.find((b) => b.allowed?.money) ?? rest.find((b) => b.allowed);
  const allowed = toMinor(headline?.allowed?.money);
  const used = toMinor(headline?.used?.money) ?? (allowed ? { minor: 0, currency: allowed.currency } : undefined);
  if (allowed) view.allowed = allowed;
  if (used) view.used = used;
  if (!allowed && headline?.allowed?.text) view.allowedText = headline.allowed.text;
  if (allowed && used && allowed.currency === used.currency) {
    view.remaining = { minor: Math.max(0, allowed.minor - used.minor), currency: allowed.currency };
    view.usedPercent = allowed.minor === 0 ? (used.minor > 0 ? 100 : 0) : Math.min(100, Math.floor((used.minor * 100) / allowed.minor));
  }
  const copay = benefits.find((b) => isType(b, "copay-percent"));
  if (copay?.allowed?.count !== undefined) view.copayPercent = copay.allowed.count;
  return view;
}

/** The site-eligibility extension of an insurance (or of the whole response); unknown codes count as not in force. */
function siteEligibilityOf(node: Record<string, unknown>): { code: string; inForce: boolean } | undefined {
  const extension = list(node.extension).find((e) => e.url === EXTENSIONS.siteEligibility);
  if (!extension) return undefined;
  const code = readCoded(extension.valueCodeableConcept, SYSTEMS.siteEligibility)?.code ?? readCoded(extension.valueCodeableConcept)?.code;
  if (!code) return undefined;
  const known = (SITE_ELIGIBILITY as Record<string, { inForce: boolean } | undefined>)[code];
  return { code, inForce: known?.inForce ?? false };
}

const classValue = (coverage: Record<string, unknown>, type: string) => {
  const found = list(coverage.class).find((c) => readCoded(c.type)?.code === type);
  return found ? (text(found.value) ?? text(found.name)) : undefined;
};

/** One Coverage resource as the desk registers it (tolerant: what is missing stays absent). */
function readDiscoveredCoverage(coverage: Record<string, unknown>, coverageId: string, inforce: boolean): DiscoveredCoverageView {
  const view: DiscoveredCoverageView = { coverageId, inforce };
  const payor = list(coverage.payor).map(readReference).find(Boolean);
  const insurerId = referenceId(payor, "Organization") ?? payor?.identifier?.value;
  if (insurerId) view.insurerId = insurerId;
  if (payor?.display) view.insurerName = payor.display;
  const memberId = list(coverage.identifier).map((i) => text(i.value)).find(Boolean) ?? text(coverage.subscriberId);
  if (memberId) view.memberId = memberId;
  const plan = classValue(coverage, "plan");
  if (plan) view.plan = plan;
  const coverageClass = classValue(coverage, "class");
  if (coverageClass) view.coverageClass = coverageClass;
  if (text(coverage.network)) view.network = coverage.network as string;
  const period = readPeriod(coverage.period);
  if (period) view.period = period;
  const relationship = readCoded(coverage.relationship)?.code;
  if (relationship) view.relationship = relationship;
  for (const cost of list(coverage.costToBeneficiary)) {
    const quantity = cost.valueQuantity as Record<string, unknown> | undefined;
    const percent = num(quantity?.value);
    if (percent !== undefined && (quantity?.code === "%" || quantity?.unit === "%") && view.copayPercent === undefined) view.copayPercent = percent;
    const amount = toMinor(readMoney(cost.valueMoney));
    if (amount && !view.copayMoney) view.copayMoney = amount;
  }
  return view;
}

/** Options of the reader: the other resources of the message the response came in (a discovery's Coverages). */
export interface EligibilityReadOptions {
  resources?: readonly unknown[];
}

/**
 * Reads a CoverageEligibilityResponse: in force per insurance; per item its category, network,
 * unit, term and benefits (allowed/used as Money, counts or text); errors. Throws FhirReadError
 * when it is not valid R4.
 */
export function readCoverageEligibilityResponse(json: unknown, options: EligibilityReadOptions = {}): Read<BenefitsView, CoverageEligibilityResponse> {
  const report = checkStructure(json, "CoverageEligibilityResponse");
  const r = json as Record<string, unknown>;
  // The Coverages an insurance may name: contained in the response (`#id`) or entries of its message.
  const coverages = [...list(r.contained), ...list(options.resources)].filter((c) => c.resourceType === "Coverage");
  const coverageFor = (ref: ReferenceView | undefined) => {
    const id = ref?.reference?.startsWith("#") ? ref.reference.slice(1) : (referenceId(ref, "Coverage") ?? ref?.id);
    return id ? coverages.find((c) => c.id === id) : undefined;
  };
  const discovered: DiscoveredCoverageView[] = [];
  const insurances: InsuranceView[] = list(r.insurance).map((insurance) => {
    const coverage = readReference(insurance.coverage);
    const site = siteEligibilityOf(insurance) ?? siteEligibilityOf(r);
    const view: InsuranceView = { inforce: insurance.inforce === true && (site?.inForce ?? true), categories: list(insurance.item).map(readCategory) };
    const deductible = annualAmount(view.categories, "deductible");
    if (deductible) view.deductible = deductible;
    const outOfPocket = annualAmount(view.categories, "outOfPocket");
    if (outOfPocket) view.outOfPocket = outOfPocket;
    if (site) view.siteEligibility = site;
    if (coverage) {
      view.coverage = coverage;
      const resource = coverageFor(coverage);
      const id = referenceId(coverage, "Coverage") ?? text(resource?.id) ?? coverage.identifier?.value;
      if (id) view.coverageId = id;
      if (resource && id) discovered.push(readDiscoveredCoverage(resource, id, view.inforce));
    }
    const period = readPeriod(insurance.benefitPeriod);
    if (period) view.benefitPeriod = period;
    return view;
  });
  const identifiers = list(r.identifier).flatMap((i) => readIdentifier(i) ?? []);
  const view: BenefitsView = {
    identifiers,
    outcome: String(r.outcome),
    created: String(r.created),
    purpose: (Array.isArray(r.purpose) ? r.purpose : []).filter((p): p is string => typeof p === "string"),
    inforce: insurances.some((i) => i.inforce),
    ...(!insurances.some((i) => i.inforce) && list(r.insurance).some((insurance, n) => insurance.inforce === true && insurances[n]?.siteEligibility?.inForce === false) ? { inForceNotAtSite: true } : {}),
    insurances,
    ...(discovered.length > 0 ? { discovered } : {}),
    errors: list(r.error).map((e) => {
      const code = readCoded(e.code);
      return code ? { code } : {};
    }),
    otherExtensions: collectExtensions(r, "CoverageEligibilityResponse"),
    notes: report.notes,
  };
  const responseId = identifiers[0]?.value ?? text(r.id);
  if (responseId) view.responseId = responseId;
  if (text(r.disposition)) view.disposition = r.disposition as string;
  const insurer = readReference(r.insurer);
  if (insurer) {
    view.insurer = insurer;
    const id = referenceId(insurer, "Organization") ?? insurer.identifier?.value;
    if (id) view.insurerId = id;
  }
  const patient = readReference(r.patient);
  if (patient) view.patient = patient;
  const request = readReference(r.request);
  if (request) view.request = request;
  if (text(r.servicedDate)) view.servicedDate = r.servicedDate as string;
  const servicedPeriod = readPeriod(r.servicedPeriod);
  if (servicedPeriod) view.servicedPeriod = servicedPeriod;
  if (text(r.preAuthRef)) view.preAuthRef = r.preAuthRef as string;
  return { view, raw: json as CoverageEligibilityResponse };
}
