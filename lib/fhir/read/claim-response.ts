import type { ClaimResponse } from "@medplum/fhirtypes";
import {
  ADJUDICATION_OUTCOMES,
  CLAIM_PROCESSING_STATUS_EXTENSION,
  CODE_SYSTEMS,
  NATIONAL_EXCHANGE,
  PORTAL_SUBMISSION_STATUS_EXTENSION,
  type AdjudicationOutcome,
} from "../systems";
import { FhirReadError, type Read } from "./errors";
import { EXTENSIONS } from "../nphies/extensions";
import { collectExtensions, extensionCode, type ExtensionView } from "./extensions";
import { readIdentifier, readReference, type IdentifierView, type ReferenceView } from "./reference";
import { checkStructure } from "./structure";
import { isObject, list, num, readCoded, readMoney, readPeriod, sumMoney, text, type CodedView, type MoneyView, type PeriodView } from "./values";

/**
 * ClaimResponse → what the portal shows and stores: one decision per item, per added item and
 * overall, with amounts in exact minor units and the reasons as codes the screens put into words.
 *
 * Decisions follow R4 and the national-exchange conventions, in this order:
 *  - overall: `outcome` error → error; queued → pended; else the resource's adjudication-outcome
 *    extension; else the sandbox's processing-status extension; else derived from the items.
 *  - per item: the item's adjudication-outcome extension (approved, rejected, partial, pended,
 *    not-required); else errors naming only that item → error; else the adjudication amounts:
 *    benefit or approved quantity → approved (partly, when reduced: eligible below submitted, an
 *    amount rejected, or a reason given); eligible without benefit and without a denial reason →
 *    partly approved (nothing paid, e.g. a plan limit); otherwise denied; no amounts at all → pended.
 */

export type Decision = "approved" | "partly-approved" | "denied" | "pended" | "error";
export const DECISIONS: readonly Decision[] = ["approved", "partly-approved", "denied", "pended", "error"];

/** Adjudication categories the portal reads into named amounts (HL7 and national-exchange codes). */
export type AmountCategory = "submitted" | "eligible" | "copay" | "deductible" | "benefit" | "tax" | "discount" | "rejected" | "patientShare";
const AMOUNT_CATEGORIES: readonly AmountCategory[] = ["submitted", "eligible", "copay", "deductible", "benefit", "tax", "discount", "rejected", "patientShare"];
const CATEGORY_SYSTEMS = [CODE_SYSTEMS.adjudication, NATIONAL_EXCHANGE.adjudicationSystem] as const;

/** Reasons that mean "not covered at all" rather than "reduced" (HL7 ar001 and the sandbox's own). */
const DENIAL_REASONS = new Set(["ar001", "coverage-inactive", "preauth-required"]);

export interface AdjudicationView {
  category?: CodedView;
  reason?: CodedView;
  amount?: MoneyView;
  value?: number;
}

export interface ClaimResponseErrorView {
  code?: CodedView;
  itemSequence?: number;
  detailSequence?: number;
  subDetailSequence?: number;
  /** The element the error names, e.g. `Claim.item[2]` (by sequence), when it names one. */
  element?: string;
}

export interface ClaimResponseLineView {
  kind: "item" | "addItem" | "detail" | "subDetail";
  /** itemSequence / detailSequence / subDetailSequence of the claim line it answers. */
  sequence?: number;
  /** addItem: the claim items it relates to. */
  itemSequences?: number[];
  /** addItem: the service the payer added or substituted. */
  service?: CodedView;
  modifiers?: CodedView[];
  servicedDate?: string;
  servicedPeriod?: PeriodView;
  quantity?: number;
  unitPrice?: MoneyView;
  net?: MoneyView;
  amounts: Partial<Record<AmountCategory, MoneyView>>;
  approvedQuantity?: number;
  /** A prescription's line: the refills the payer approved (category approved-refill, guide 7.11 point 3). */
  approvedRefills?: number;
  eligiblePercent?: number;
  /** Every adjudication as given (other categories included). */
  adjudication: AdjudicationView[];
  /** The national-exchange adjudication-outcome extension, when present. */
  outcome?: AdjudicationOutcome;
  decision: Decision;
  /** Approved, yet nothing paid by the payer (benefit 0): "Not payable — plan limit reached" and the like. */
  zeroBenefit: boolean;
  reasons: CodedView[];
  errors: ClaimResponseErrorView[];
  noteNumbers: number[];
  details: ClaimResponseLineView[];
}

export interface ProcessNoteView {
  number?: number;
  /** display | print | printoper */
  type?: string;
  text: string;
  language?: CodedView;
}

/**
 * The payer's answer to a referral's prior authorization (guide 7.3, Table 10): the receiving
 * provider's authorization — its number, period and the provider it is for.
 */
export interface TransferAuthorizationView {
  number?: string;
  period?: PeriodView;
  provider?: ReferenceView;
}

export interface ClaimResponseView {
  resourceId?: string;
  /** A transfer of care's authorization for the receiving provider (extension-transferAuthorization*). */
  transfer?: TransferAuthorizationView;
  identifiers: IdentifierView[];
  status: string;
  use: string;
  type?: CodedView;
  subType?: CodedView;
  patient?: ReferenceView;
  insurer?: ReferenceView;
  requestor?: ReferenceView;
  request?: ReferenceView;
  created: string;
  /** R4 outcome: queued | complete | error | partial */
  outcome: string;
  disposition?: string;
  decision: Decision;
  /** What the overall decision was read from. */
  decisionFrom: "outcome" | "outcome-extension" | "platform-status" | "items";
  /** The resource-level adjudication-outcome extension. */
  adjudicationOutcome?: AdjudicationOutcome;
  /** The sandbox's processing-status extension (queued, pended, complete, partial, denied, cancelled). */
  platformStatus?: string;
  preAuthRef?: string;
  preAuthPeriod?: PeriodView;
  /** The reissue-reason extension: the payer reissued an earlier decision (its code and words). */
  reissueReason?: CodedView;
  payeeType?: CodedView;
  items: ClaimResponseLineView[];
  addItems: ClaimResponseLineView[];
  /** `total[]` as given. */
  totals: { category?: CodedView; amount?: MoneyView }[];
  /** Named totals: from `total[]`, else summed exactly over items and added items. */
  total: Partial<Record<AmountCategory, MoneyView>>;
  payment?: {
    type?: CodedView;
    date?: string;
    amount?: MoneyView;
    adjustment?: MoneyView;
    adjustmentReason?: CodedView;
    identifier?: IdentifierView;
  };
  fundsReserve?: CodedView;
  formCode?: CodedView;
  processNotes: ProcessNoteView[];
  insurance: { sequence?: number; focal?: boolean; coverage?: ReferenceView; businessArrangement?: string; claimResponse?: ReferenceView }[];
  errors: ClaimResponseErrorView[];
  communicationRequests: ReferenceView[];
  /** Extensions the portal does not interpret, listed readably. */
  otherExtensions: ExtensionView[];
  /** Tolerated departures from R4 (unknown members, empty strings). */
  notes: string[];
}

const TRANSFER_EXTENSIONS = {
  number: EXTENSIONS.transferAuthorizationNumber,
  period: EXTENSIONS.transferAuthorizationPeriod,
  provider: EXTENSIONS.transferAuthorizationProvider,
} as const;

/** The transfer authorization extensions of a ClaimResponse (tolerant: each part optional, first of each). */
function readTransfer(r: Record<string, unknown>): TransferAuthorizationView | undefined {
  const ext = (url: string) => list(r.extension).find((e) => e.url === url);
  const view: TransferAuthorizationView = {};
  const number = ext(TRANSFER_EXTENSIONS.number);
  const value = text(number?.valueString) ?? text((number?.valueIdentifier as Record<string, unknown> | undefined)?.value);
  if (value) view.number = value;
  const period = readPeriod(ext(TRANSFER_EXTENSIONS.period)?.valuePeriod);
  if (period) view.period = period;
  const provider = readReference(ext(TRANSFER_EXTENSIONS.provider)?.valueReference);
  if (provider) view.provider = provider;
  return Object.keys(view).length > 0 ? view : undefined;
}

const INTERPRETED_EXTENSIONS = new Set<string>([
  ...Object.values(TRANSFER_EXTENSIONS),
  NATIONAL_EXCHANGE.adjudicationOutcomeExtension,
  NATIONAL_EXCHANGE.reissueExtension,
  CLAIM_PROCESSING_STATUS_EXTENSION,
  PORTAL_SUBMISSION_STATUS_EXTENSION,
]);

/**
 * The category's code as the portal names it: the exchange's table (guide v2.7 §6.3.10.1, Table 29)
 * spells some codes differently from HL7 ("coPay"), so the named amounts match case-insensitively.
 */
const CATEGORY_NAMES = new Map<string, string>([...AMOUNT_CATEGORIES, "approved-quantity", "eligpercent", "unallocdeduct"].map((c) => [c.toLowerCase(), c]));

function categoryOf(adjudication: Record<string, unknown>): string | undefined {
  const code = readCoded(adjudication.category, CATEGORY_SYSTEMS)?.code;
  return code === undefined ? undefined : (CATEGORY_NAMES.get(code.toLowerCase()) ?? code);
}

function adjudicationOutcome(element: unknown): AdjudicationOutcome | undefined {
  const code = extensionCode(element, NATIONAL_EXCHANGE.adjudicationOutcomeExtension)?.code;
  return (ADJUDICATION_OUTCOMES as readonly string[]).includes(code ?? "") ? (code as AdjudicationOutcome) : undefined;
}

const OUTCOME_DECISION: Record<AdjudicationOutcome, Decision> = {
  approved: "approved",
  rejected: "denied",
  partial: "partly-approved",
  pended: "pended",
  "not-required": "approved",
};

const PLATFORM_STATUS_DECISION: Record<string, Decision> = {
  queued: "pended",
  pended: "pended",
  complete: "approved",
  partial: "partly-approved",
  denied: "denied",
};

const positive = (m: MoneyView | undefined) => m !== undefined && m.value > 0;

function lineDecision(line: Omit<ClaimResponseLineView, "decision" | "zeroBenefit">): { decision: Decision; zeroBenefit: boolean } {
  const { amounts } = line;
  const paid = positive(amounts.benefit);
  const quantityApproved = (line.approvedQuantity ?? 0) > 0;
  if (line.outcome) {
    const decision = OUTCOME_DECISION[line.outcome];
    const granted = decision === "approved" || decision === "partly-approved";
    // Granted, yet the payer states a benefit of 0.00 (not merely none): an unstated benefit is not "nothing paid".
    return { decision, zeroBenefit: granted && amounts.benefit !== undefined && !paid && !quantityApproved };
  }
  const decided = amounts.benefit !== undefined || amounts.eligible !== undefined || line.approvedQuantity !== undefined || amounts.rejected !== undefined;
  if (!decided) return { decision: line.errors.length > 0 ? "error" : "pended", zeroBenefit: false };
  const denialReason = line.reasons.some((r) => r.code !== undefined && DENIAL_REASONS.has(r.code));
  if (!paid && !quantityApproved && (!positive(amounts.eligible) || denialReason)) return { decision: "denied", zeroBenefit: false };
  // Granted: nothing paid at all (eligible, but a plan limit or deductible took it) still counts
  // as granted in part — the screens name it for what it is.
  const nothingPaid = !paid && !quantityApproved;
  const reduced =
    nothingPaid ||
    (amounts.eligible !== undefined && amounts.submitted !== undefined && amounts.eligible.value < amounts.submitted.value) ||
    positive(amounts.rejected) ||
    line.reasons.length > 0 ||
    (line.quantity !== undefined && line.approvedQuantity !== undefined && line.approvedQuantity < line.quantity);
  return { decision: reduced ? "partly-approved" : "approved", zeroBenefit: nothingPaid && amounts.benefit !== undefined };
}

function readErrors(resource: Record<string, unknown>): ClaimResponseErrorView[] {
  return list(resource.error).map((e) => {
    const view: ClaimResponseErrorView = {};
    const code = readCoded(e.code, CODE_SYSTEMS.adjudicationError);
    if (code) view.code = code;
    const item = num(e.itemSequence);
    const detail = num(e.detailSequence);
    const sub = num(e.subDetailSequence);
    if (item !== undefined) view.itemSequence = item;
    if (detail !== undefined) view.detailSequence = detail;
    if (sub !== undefined) view.subDetailSequence = sub;
    if (item !== undefined) {
      view.element = `Claim.item[sequence=${item}]${detail !== undefined ? `.detail[sequence=${detail}]` : ""}${sub !== undefined ? `.subDetail[sequence=${sub}]` : ""}`;
    }
    return view;
  });
}

function readLine(
  node: Record<string, unknown>,
  kind: ClaimResponseLineView["kind"],
  inherited: AdjudicationView[] | undefined,
  errorsFor: (sequence: number | undefined, kind: ClaimResponseLineView["kind"]) => ClaimResponseErrorView[],
): ClaimResponseLineView {
  const sequenceKey = kind === "item" ? "itemSequence" : kind === "detail" ? "detailSequence" : kind === "subDetail" ? "subDetailSequence" : undefined;
  const adjudication: AdjudicationView[] = list(node.adjudication).map((a) => {
    const view: AdjudicationView = {};
    const category = readCoded(a.category, CATEGORY_SYSTEMS);
    const reason = readCoded(a.reason);
    const amount = readMoney(a.amount);
    const value = num(a.value);
    if (category) view.category = category;
    if (reason) view.reason = reason;
    if (amount) view.amount = amount;
    if (value !== undefined) view.value = value;
    return view;
  });
  const amounts: ClaimResponseLineView["amounts"] = {};
  let approvedQuantity: number | undefined;
  let approvedRefills: number | undefined;
  let eligiblePercent: number | undefined;
  const reasons: CodedView[] = [];
  for (const [i, raw] of list(node.adjudication).entries()) {
    const a = adjudication[i]!;
    const category = categoryOf(raw);
    if (category && (AMOUNT_CATEGORIES as readonly string[]).includes(category) && a.amount && amounts[category as AmountCategory] === undefined) {
      amounts[category as AmountCategory] = a.amount;
    }
    if (category === "approved-quantity" && a.value !== undefined) approvedQuantity = a.value;
    if (category === "approved-refill" && a.value !== undefined && Number.isInteger(a.value) && a.value >= 0) approvedRefills = a.value;
    if (category === "eligpercent" && a.value !== undefined) eligiblePercent = a.value;
    if (a.reason && !reasons.some((r) => r.code === a.reason!.code && r.system === a.reason!.system)) reasons.push(a.reason);
  }
  const sequence = sequenceKey ? num(node[sequenceKey]) : undefined;
  const base: Omit<ClaimResponseLineView, "decision" | "zeroBenefit"> = {
    kind,
    amounts,
    adjudication: adjudication.length > 0 ? adjudication : (inherited ?? []),
    reasons,
    errors: kind === "item" || kind === "addItem" ? errorsFor(sequence, kind) : [],
    noteNumbers: (Array.isArray(node.noteNumber) ? node.noteNumber : []).filter((n): n is number => typeof n === "number"),
    details: [],
  };
  if (sequence !== undefined) base.sequence = sequence;
  if (approvedQuantity !== undefined) base.approvedQuantity = approvedQuantity;
  if (approvedRefills !== undefined) base.approvedRefills = approvedRefills;
  if (eligiblePercent !== undefined) base.eligiblePercent = eligiblePercent;
  const outcome = adjudicationOutcome(node);
  if (outcome) base.outcome = outcome;
  if (kind === "addItem") {
    const itemSequences = (Array.isArray(node.itemSequence) ? node.itemSequence : []).filter((n): n is number => typeof n === "number");
    if (itemSequences.length > 0) base.itemSequences = itemSequences;
  }
  const service = readCoded(node.productOrService);
  if (service) base.service = service;
  const modifiers = list(node.modifier).flatMap((m) => readCoded(m) ?? []);
  if (modifiers.length > 0) base.modifiers = modifiers;
  if (text(node.servicedDate)) base.servicedDate = node.servicedDate as string;
  const period = readPeriod(node.servicedPeriod);
  if (period) base.servicedPeriod = period;
  const quantity = isObject(node.quantity) ? num(node.quantity.value) : undefined;
  if (quantity !== undefined) base.quantity = quantity;
  const unitPrice = readMoney(node.unitPrice);
  if (unitPrice) base.unitPrice = unitPrice;
  const net = readMoney(node.net);
  if (net) base.net = net;
  const childKind = kind === "item" || kind === "addItem" ? "detail" : "subDetail";
  const children = kind === "subDetail" ? [] : list(node[kind === "detail" ? "subDetail" : "detail"]);
  base.details = children.map((child) => readLine(child, childKind, undefined, errorsFor));
  return { ...base, ...lineDecision(base) };
}

function overallFromLines(lines: ClaimResponseLineView[], outcome: string): Decision {
  if (lines.length === 0) return outcome === "partial" ? "partly-approved" : "approved";
  const decisions = lines.map((l) => l.decision);
  if (decisions.includes("pended")) return "pended";
  if (decisions.every((d) => d === "error")) return "error";
  if (decisions.every((d) => d === "denied" || d === "error")) return "denied";
  if (decisions.every((d) => d === "approved")) return outcome === "partial" ? "partly-approved" : "approved";
  return "partly-approved";
}

/**
 * Reads a ClaimResponse as received from the platform (or any R4 source). Throws FhirReadError
 * when it is not a valid R4 ClaimResponse; accepts everything R4 allows.
 */
export function readClaimResponse(json: unknown): Read<ClaimResponseView, ClaimResponse> {
  const report = checkStructure(json, "ClaimResponse");
  const r = json as Record<string, unknown>;
  const errors = readErrors(r);
  const errorsFor = (sequence: number | undefined, kind: ClaimResponseLineView["kind"]) =>
    kind === "item" && sequence !== undefined ? errors.filter((e) => e.itemSequence === sequence && e.detailSequence === undefined) : [];

  const items = list(r.item).map((item) => readLine(item, "item", undefined, errorsFor));
  const addItems = list(r.addItem).map((item) => readLine(item, "addItem", undefined, errorsFor));
  const outcome = String(r.outcome);

  const resourceOutcome = adjudicationOutcome(r);
  const platformStatus = extensionCode(r, CLAIM_PROCESSING_STATUS_EXTENSION)?.code;
  let decision: Decision;
  let decisionFrom: ClaimResponseView["decisionFrom"];
  if (outcome === "error") [decision, decisionFrom] = ["error", "outcome"];
  else if (outcome === "queued") [decision, decisionFrom] = ["pended", "outcome"];
  else if (resourceOutcome) [decision, decisionFrom] = [OUTCOME_DECISION[resourceOutcome], "outcome-extension"];
  else if (platformStatus && PLATFORM_STATUS_DECISION[platformStatus]) [decision, decisionFrom] = [PLATFORM_STATUS_DECISION[platformStatus]!, "platform-status"];
  else [decision, decisionFrom] = [overallFromLines([...items, ...addItems], outcome), "items"];

  const totals = list(r.total).map((t) => {
    const view: { category?: CodedView; amount?: MoneyView } = {};
    const category = readCoded(t.category, CATEGORY_SYSTEMS);
    const amount = readMoney(t.amount);
    if (category) view.category = category;
    if (amount) view.amount = amount;
    return view;
  });
  const total: ClaimResponseView["total"] = {};
  for (const category of AMOUNT_CATEGORIES) {
    const given = list(r.total).findIndex((t) => categoryOf(t) === category);
    const fromTotal = given >= 0 ? totals[given]?.amount : undefined;
    const summed = fromTotal ?? sumMoney([...items, ...addItems].map((l) => l.amounts[category]));
    if (summed) total[category] = summed;
  }

  const view: ClaimResponseView = {
    identifiers: list(r.identifier).flatMap((i) => readIdentifier(i) ?? []),
    status: String(r.status),
    use: String(r.use),
    created: String(r.created),
    outcome,
    decision,
    decisionFrom,
    items,
    addItems,
    totals,
    total,
    processNotes: list(r.processNote).flatMap((n) => {
      const noteText = text(n.text);
      if (!noteText) return [];
      const note: ProcessNoteView = { text: noteText };
      const number = num(n.number);
      if (number !== undefined) note.number = number;
      if (text(n.type)) note.type = n.type as string;
      const language = readCoded(n.language);
      if (language) note.language = language;
      return [note];
    }),
    insurance: list(r.insurance).map((i) => {
      const entry: ClaimResponseView["insurance"][number] = {};
      const sequence = num(i.sequence);
      if (sequence !== undefined) entry.sequence = sequence;
      if (typeof i.focal === "boolean") entry.focal = i.focal;
      const coverage = readReference(i.coverage);
      if (coverage) entry.coverage = coverage;
      if (text(i.businessArrangement)) entry.businessArrangement = i.businessArrangement as string;
      const claimResponse = readReference(i.claimResponse);
      if (claimResponse) entry.claimResponse = claimResponse;
      return entry;
    }),
    errors,
    communicationRequests: list(r.communicationRequest).flatMap((c) => readReference(c) ?? []),
    otherExtensions: collectExtensions(r, "ClaimResponse", INTERPRETED_EXTENSIONS),
    notes: report.notes,
  };
  if (text(r.id)) view.resourceId = r.id as string;
  const optionalRefs = { patient: r.patient, insurer: r.insurer, requestor: r.requestor, request: r.request } as const;
  for (const [key, value] of Object.entries(optionalRefs)) {
    const ref = readReference(value);
    if (ref) view[key as keyof typeof optionalRefs] = ref;
  }
  const type = readCoded(r.type, CODE_SYSTEMS.claimType);
  if (type) view.type = type;
  const subType = readCoded(r.subType);
  if (subType) view.subType = subType;
  if (text(r.disposition)) view.disposition = r.disposition as string;
  if (resourceOutcome) view.adjudicationOutcome = resourceOutcome;
  if (platformStatus) view.platformStatus = platformStatus;
  if (text(r.preAuthRef)) view.preAuthRef = r.preAuthRef as string;
  const transfer = readTransfer(r);
  if (transfer) view.transfer = transfer;
  const reissue = list(r.extension).find((e) => typeof e.url === "string" && e.url.endsWith("/extension-adjudication-reissue"));
  const reissueReason = reissue ? (readCoded(reissue.valueCodeableConcept) ?? (text(reissue.valueCode) ? { code: reissue.valueCode as string } : undefined)) : undefined;
  if (reissueReason) view.reissueReason = reissueReason;
  const preAuthPeriod = readPeriod(r.preAuthPeriod);
  if (preAuthPeriod) view.preAuthPeriod = preAuthPeriod;
  const payeeType = readCoded(r.payeeType);
  if (payeeType) view.payeeType = payeeType;
  const fundsReserve = readCoded(r.fundsReserve);
  if (fundsReserve) view.fundsReserve = fundsReserve;
  const formCode = readCoded(r.formCode);
  if (formCode) view.formCode = formCode;
  if (isObject(r.payment)) {
    const p = r.payment;
    const payment: NonNullable<ClaimResponseView["payment"]> = {};
    const ptype = readCoded(p.type, CODE_SYSTEMS.paymentType);
    if (ptype) payment.type = ptype;
    if (text(p.date)) payment.date = p.date as string;
    const amount = readMoney(p.amount);
    if (amount) payment.amount = amount;
    const adjustment = readMoney(p.adjustment);
    if (adjustment) payment.adjustment = adjustment;
    const adjustmentReason = readCoded(p.adjustmentReason);
    if (adjustmentReason) payment.adjustmentReason = adjustmentReason;
    const identifier = readIdentifier(p.identifier);
    if (identifier) payment.identifier = identifier;
    view.payment = payment;
  }
  return { view, raw: json as ClaimResponse };
}

/** True when `error` is a FhirReadError (also across bundles, where instanceof can fail). */
export function isFhirReadError(error: unknown): error is FhirReadError {
  return error instanceof FhirReadError || (isObject(error) && (error as { name?: unknown }).name === "FhirReadError");
}
