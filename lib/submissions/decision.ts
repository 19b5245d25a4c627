import type { ClaimResponse } from "@medplum/fhirtypes";
import {
  isFhirReadError,
  readClaimResponse,
  type AmountCategory,
  type ClaimResponseErrorView,
  type ClaimResponseLineView,
  type ClaimResponseView,
  type CodedView,
  type Decision,
  type MoneyView,
  type AdjudicationOutcome,
  type ProcessNoteView,
} from "@/lib/fhir";

/**
 * The stored ClaimResponse as the screens show it, taken from the tolerant reader
 * (`readClaimResponse(response).view`, lib/fhir/read): one line per item and per item the payer
 * added, with its decision, reasons, notes and exact amounts (halalas), joined with what the clinic
 * asked for (service, date, quantity) from the Claim as sent. Pure and cheap: pages call it on
 * every render, with the view stored when the answer arrived.
 */

export interface DecisionLine {
  kind: "item" | "addItem";
  /** Claim item sequence (items); the claim items an added item relates to (added items). */
  sequence?: number;
  relatesTo: number[];
  /** The service: from the Claim for items, from the answer for added items. */
  code?: string;
  codeSystem?: string;
  /** The platform's own words for the service (added items). */
  serviceText?: string;
  servicedDate?: string;
  quantity?: number;
  approvedQuantity?: number;
  submittedMinor?: number;
  eligibleMinor?: number;
  copayMinor?: number;
  deductibleMinor?: number;
  taxMinor?: number;
  benefitMinor?: number;
  /**
   * The patient's share as the payer states it (adjudication category `patientShare`); absent when
   * the payer did not state one — shown "not stated", never worked out from other figures.
   */
  shareMinor?: number;
  decision: Decision;
  /** Granted, yet the payer pays nothing (benefit 0): shown as "not paid", never as "approved". */
  zeroBenefit: boolean;
  /** The national-exchange outcome extension as sent, when present. */
  outcome?: AdjudicationOutcome;
  reasons: CodedView[];
  errors: ClaimResponseErrorView[];
  notes: ProcessNoteView[];
}

export interface DecisionView {
  /** The reader's whole view (process notes, errors, payment, insurance, other extensions …). */
  response: ClaimResponseView;
  decision: Decision;
  outcome: string;
  disposition?: string;
  preAuthRef?: string;
  preAuthPeriod?: { start?: string; end?: string };
  lines: DecisionLine[];
  totals: StatedAmounts;
}

/**
 * The amounts of a line or of the whole answer exactly as the payer stated them, one figure per
 * adjudication category (guide v2.7 §6.3.10.1, Table 29: eligible, benefit, copay, deductible, tax,
 * patientShare …). THE one reading of a decision's money for the screens, the dashboards and the
 * machine APIs (docs/decisions/098): nothing here is derived by subtraction, and a figure the payer
 * did not state is absent (screens say "not stated").
 */
export interface StatedAmounts {
  submittedMinor?: number;
  eligibleMinor?: number;
  copayMinor?: number;
  deductibleMinor?: number;
  taxMinor?: number;
  discountMinor?: number;
  benefitMinor?: number;
  /** The patient's share (category `patientShare`). */
  shareMinor?: number;
}

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]).filter((x) => typeof x === "object" && x !== null) : []);
const minor = (m: MoneyView | undefined): number | undefined => m?.minor;

const STATED: readonly [keyof StatedAmounts, AmountCategory][] = [
  ["submittedMinor", "submitted"],
  ["eligibleMinor", "eligible"],
  ["copayMinor", "copay"],
  ["deductibleMinor", "deductible"],
  ["taxMinor", "tax"],
  ["discountMinor", "discount"],
  ["benefitMinor", "benefit"],
  ["shareMinor", "patientShare"],
];

/** The named amounts of a reader's line or total, as stated (see {@link StatedAmounts}). */
export function statedAmounts(a: Partial<Record<AmountCategory, MoneyView>> | undefined): StatedAmounts {
  const out: StatedAmounts = {};
  for (const [key, category] of STATED) {
    const value = minor(a?.[category]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The answer's totals as stated, from the view stored with the answer (`response_view`) or, for a
 * row without one, read from the raw answer: what the machine APIs (/v1, the gateway) and the
 * payments reads report. Undefined when there is no readable answer.
 */
export function statedTotals(response: Json | null | undefined, storedResponseView?: Json | null): StatedAmounts | undefined {
  const view = storedView(storedResponseView) ?? responseView(response);
  return view ? statedAmounts(view.total) : undefined;
}

const amounts = statedAmounts;

/** Reads a stored or received ClaimResponse; undefined when it is not valid R4 (never stored as a decision). */
export function responseView(response: ClaimResponse | Record<string, unknown> | null | undefined): ClaimResponseView | undefined {
  if (!response) return undefined;
  try {
    return readClaimResponse(response).view;
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}

/**
 * The reader's view stored beside the answer when it was received (`submissions.response_view`,
 * written by lib/pipeline apply together with the answer). A row without one (or with something
 * that is not a view) is read from the raw answer instead.
 */
function storedView(stored: Json | null | undefined): ClaimResponseView | undefined {
  if (!stored || typeof stored.decision !== "string" || !Array.isArray(stored.items) || !Array.isArray(stored.addItems) || !Array.isArray(stored.processNotes)) return undefined;
  return stored as unknown as ClaimResponseView;
}

/**
 * Decision of a stored ClaimResponse, or undefined when there is none or it is not R4. The view
 * read when the answer arrived is used as stored (`storedResponseView`): an answer is read once,
 * not on every render (docs/decisions/078).
 */
export function readDecision(response: Json | null | undefined, claim: Json | null | undefined, storedResponseView?: Json | null): DecisionView | undefined {
  if (!response) return undefined;
  // Stored answers were read when they arrived; one that no longer reads is shown raw only.
  const view = storedView(storedResponseView) ?? responseView(response);
  if (!view) return undefined;
  const claimItems = new Map(arr(claim?.item).map((i) => [Number(i.sequence), i]));
  const notesOf = (numbers: number[]) => view.processNotes.filter((n) => n.number !== undefined && numbers.includes(n.number));
  const line = (l: ClaimResponseLineView): DecisionLine => {
    const source = l.kind === "item" && l.sequence !== undefined ? claimItems.get(l.sequence) : undefined;
    const coding = arr((source?.productOrService as Json | undefined)?.coding)[0];
    const out: DecisionLine = {
      kind: l.kind === "addItem" ? "addItem" : "item",
      relatesTo: l.itemSequences ?? [],
      decision: l.decision,
      // Views stored by an earlier reader called an unstated benefit "nothing paid"; only a stated 0.00 is.
      zeroBenefit: l.zeroBenefit && l.amounts.benefit !== undefined && l.amounts.benefit.value === 0,
      reasons: l.reasons,
      errors: l.errors,
      notes: notesOf(l.noteNumbers),
      ...amounts(l.amounts),
    };
    if (l.sequence !== undefined) out.sequence = l.sequence;
    const code = typeof coding?.code === "string" ? coding.code : l.service?.code;
    if (code) out.code = code;
    const system = typeof coding?.system === "string" ? coding.system : l.service?.system;
    if (system) out.codeSystem = system;
    const serviceText = l.service?.display ?? l.service?.text;
    if (serviceText) out.serviceText = serviceText;
    const date = typeof source?.servicedDate === "string" ? source.servicedDate : (l.servicedDate ?? l.servicedPeriod?.start);
    if (date) out.servicedDate = date;
    const quantity = typeof (source?.quantity as Json | undefined)?.value === "number" ? ((source!.quantity as Json).value as number) : l.quantity;
    if (quantity !== undefined) out.quantity = quantity;
    if (l.approvedQuantity !== undefined) out.approvedQuantity = l.approvedQuantity;
    if (l.outcome) out.outcome = l.outcome;
    return out;
  };
  const lines = [...view.items.map(line), ...view.addItems.map(line)];
  const total = amounts(view.total);
  const result: DecisionView = {
    response: view,
    decision: view.decision,
    outcome: view.outcome,
    lines,
    totals: total,
  };
  if (view.disposition) result.disposition = view.disposition;
  if (view.preAuthRef) result.preAuthRef = view.preAuthRef;
  if (view.preAuthPeriod) result.preAuthPeriod = view.preAuthPeriod;
  return result;
}
