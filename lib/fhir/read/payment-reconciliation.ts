import type { PaymentReconciliation } from "@medplum/fhirtypes";
import { EXTENSIONS } from "../nphies/extensions";
import { readResource } from "./bundle";
import type { Read } from "./errors";
import { readIdentifier, readReference, type IdentifierView, type ReferenceView } from "./reference";
import { list, readCoded, readMoney, readPeriod, text, type MoneyView, type PeriodView } from "./values";

/**
 * PaymentReconciliation (a payer's remittance) → what the portal stores and reconciles
 * (docs/decisions/047, 098). Per detail: its kind, the claim it pays, what reached the clinic
 * (`detail.amount`, signed: a reversal is negative) and the exchange's components (guide v2.7,
 * profile release note 4.1: `extension-component-payment`, `-component-early-fee`,
 * `-component-nphies-fee`): what the payer applied to the claim, the early-payment discount and the
 * exchange's fee. Amounts exact (halalas); the fees as positive deductions, whatever sign they were
 * written with. Any valid R4 PaymentReconciliation reads; FhirReadError otherwise.
 */

/** payment | adjustment | advance (HL7 payment-type) | reversal (negative, naming its predecessor) | other. */
export type RemittanceDetailKind = "payment" | "adjustment" | "advance" | "reversal" | "other";

export interface RemittanceDetailView {
  /** Position in `detail` (0-based). */
  position: number;
  kind: RemittanceDetailKind;
  /** `detail.type` code as given. */
  typeCode?: string;
  identifier?: IdentifierView;
  /** The detail this one corrects or reverses (`detail.predecessor`). */
  predecessor?: IdentifierView;
  request?: ReferenceView;
  response?: ReferenceView;
  date?: string;
  /** What reached the clinic for this detail, signed (halalas). Undefined when absent or not exact. */
  amountMinor?: number;
  /** component-payment: what the payer applied to the claim (signed like the amount). */
  paymentMinor?: number;
  /** component-early-fee: the early-payment discount the payer kept (≥ 0). */
  earlyFeeMinor?: number;
  /** component-nphies-fee: the exchange's fee (≥ 0). */
  exchangeFeeMinor?: number;
  /**
   * What settles the claim: the payment component when stated, else the amount plus the fees —
   * so a payment short by exactly its fees settles the benefit in full.
   */
  settledMinor?: number;
  /**
   * The components disagree with the amount (payment − fees ≠ amount), by this much (halalas,
   * amount − (payment − fees)); undefined when they agree or are not all stated.
   */
  componentGapMinor?: number;
}

export interface PaymentReconciliationView {
  id?: string;
  identifiers: IdentifierView[];
  status: string;
  created?: string;
  outcome?: string;
  disposition?: string;
  period?: PeriodView;
  paymentDate?: string;
  /** paymentAmount, signed (halalas); undefined when not exact. */
  paymentAmountMinor?: number;
  currency?: string;
  paymentIdentifier?: IdentifierView;
  paymentIssuer?: ReferenceView;
  details: RemittanceDetailView[];
  /** Sums over the details (halalas). */
  totals: { amountMinor: number; settledMinor: number; earlyFeeMinor: number; exchangeFeeMinor: number };
  /** paymentAmount − the details' amounts (0: the remittance adds up to the halala); undefined without a paymentAmount. */
  unallocatedMinor?: number;
  notes: string[];
}

const minorOf = (m: MoneyView | undefined): number | undefined => m?.minor;

function extensionMoney(node: Record<string, unknown>, url: string): number | undefined {
  const found = list(node.extension).find((e) => e.url === url);
  return found ? minorOf(readMoney(found.valueMoney)) : undefined;
}

const KNOWN_KINDS = new Set<RemittanceDetailKind>(["payment", "adjustment", "advance", "reversal"]);

function detailOf(d: Record<string, unknown>, position: number): RemittanceDetailView {
  const typeCode = readCoded(d.type)?.code;
  const view: RemittanceDetailView = { position, kind: "other" };
  if (typeCode) view.typeCode = typeCode;
  const identifier = readIdentifier(d.identifier);
  if (identifier) view.identifier = identifier;
  const predecessor = readIdentifier(d.predecessor);
  if (predecessor) view.predecessor = predecessor;
  const request = readReference(d.request);
  if (request) view.request = request;
  const response = readReference(d.response);
  if (response) view.response = response;
  if (text(d.date)) view.date = d.date as string;
  const amount = minorOf(readMoney(d.amount));
  if (amount !== undefined) view.amountMinor = amount;
  const payment = extensionMoney(d, EXTENSIONS.componentPayment);
  const earlyFee = extensionMoney(d, EXTENSIONS.componentEarlyFee);
  const exchangeFee = extensionMoney(d, EXTENSIONS.componentNphiesFee);
  if (payment !== undefined) view.paymentMinor = payment;
  if (earlyFee !== undefined) view.earlyFeeMinor = Math.abs(earlyFee);
  if (exchangeFee !== undefined) view.exchangeFeeMinor = Math.abs(exchangeFee);
  const lowered = typeCode?.toLowerCase();
  const negative = (amount ?? payment ?? 0) < 0;
  view.kind =
    lowered === "reversal" || (negative && (predecessor !== undefined || lowered === "payment" || lowered === "adjustment"))
      ? "reversal"
      : lowered && KNOWN_KINDS.has(lowered as RemittanceDetailKind)
        ? (lowered as RemittanceDetailKind)
        : "other";
  // A reversal takes back its fees too: they count with the reversal's sign.
  const sign = negative ? -1 : 1;
  const fees = sign * ((view.earlyFeeMinor ?? 0) + (view.exchangeFeeMinor ?? 0));
  if (payment !== undefined) view.settledMinor = payment;
  else if (amount !== undefined) view.settledMinor = amount + fees;
  if (payment !== undefined && amount !== undefined && (earlyFee !== undefined || exchangeFee !== undefined)) {
    const gap = amount - (payment - fees);
    if (gap !== 0) view.componentGapMinor = gap;
  }
  return view;
}

export function readPaymentReconciliation(json: unknown): Read<PaymentReconciliationView, PaymentReconciliation> {
  const read = readResource<PaymentReconciliation>(json, "PaymentReconciliation");
  const r = json as Record<string, unknown>;
  const details = list(r.detail).map(detailOf);
  const sum = (pick: (d: RemittanceDetailView) => number | undefined) => details.reduce((t, d) => t + (pick(d) ?? 0), 0);
  const view: PaymentReconciliationView = {
    identifiers: list(r.identifier).flatMap((i) => readIdentifier(i) ?? []),
    status: String(r.status),
    details,
    totals: { amountMinor: sum((d) => d.amountMinor), settledMinor: sum((d) => d.settledMinor), earlyFeeMinor: sum((d) => d.earlyFeeMinor), exchangeFeeMinor: sum((d) => d.exchangeFeeMinor) },
    notes: read.view.notes,
  };
  if (text(r.id)) view.id = r.id as string;
  if (text(r.created)) view.created = r.created as string;
  if (text(r.outcome)) view.outcome = r.outcome as string;
  if (text(r.disposition)) view.disposition = r.disposition as string;
  const period = readPeriod(r.period);
  if (period) view.period = period;
  if (text(r.paymentDate)) view.paymentDate = r.paymentDate as string;
  const paymentAmount = readMoney(r.paymentAmount);
  if (paymentAmount?.minor !== undefined) view.paymentAmountMinor = paymentAmount.minor;
  if (paymentAmount?.currency) view.currency = paymentAmount.currency;
  const paymentIdentifier = readIdentifier(r.paymentIdentifier);
  if (paymentIdentifier) view.paymentIdentifier = paymentIdentifier;
  const issuer = readReference(r.paymentIssuer);
  if (issuer) view.paymentIssuer = issuer;
  if (view.paymentAmountMinor !== undefined) view.unallocatedMinor = view.paymentAmountMinor - view.totals.amountMinor;
  return { view, raw: read.raw };
}
