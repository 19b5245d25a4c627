import { z } from "zod";
import { SUBMISSION_STATUSES } from "@/lib/db";
import type { SubmissionStatus } from "@/lib/db";
import { toMinorUnits, type AmountCategory, type MoneyView } from "@/lib/fhir";
import { statedAmounts, statedTotals, type StatedAmounts } from "@/lib/submissions";
import { minorToDecimal } from "@/lib/money";
import type { ClaimRow } from "./query";

/** Money as an exact decimal string with two decimals (`"250.00"`), never a float. */
export const ApiMoneySchema = z
  .object({
    value: z.string().regex(/^-?\d+\.\d{2}$/).meta({ description: 'Exact decimal amount, two decimals (e.g. "250.00").' }),
    currency: z.string().meta({ description: "ISO 4217 code, e.g. SAR." }),
  })
  .nullable();
export type ApiMoney = NonNullable<z.infer<typeof ApiMoneySchema>>;

const nullableDateTime = z.iso.datetime().nullable();

/** A claim as `GET /v1/claims` shows it. Field names are stable: the OpenAPI document is generated from this schema. */
export const ApiClaimSchema = z.strictObject({
  id: z.uuid(),
  identifier: z.string().nullable().meta({ description: "Claim.identifier value (fixed when queued)." }),
  status: z.enum(SUBMISSION_STATUSES),
  use: z.literal("claim"),
  patient: z.string().meta({ description: "The patient's national ID." }),
  insurer: z.string().nullable(),
  created: z.iso.datetime(),
  submitted_at: nullableDateTime,
  decided_at: nullableDateTime,
  total: ApiMoneySchema,
  benefit: ApiMoneySchema.meta({ description: "What the insurer pays (ClaimResponse total 'benefit')." }),
  patient_share: ApiMoneySchema.meta({ description: "The patient's share as the payer states it (ClaimResponse total 'patientShare'); null when the payer did not state one." }),
  copay: ApiMoneySchema.meta({ description: "The copay as the payer states it (ClaimResponse total 'copay'); null when not stated." }),
  tax: ApiMoneySchema.meta({ description: "The VAT as the payer states it (ClaimResponse total 'tax'); null when not stated." }),
  payment: z.strictObject({ date: z.iso.date().nullable(), amount: ApiMoneySchema }).nullable(),
  platform_id: z.string().nullable(),
  cancelled_at: nullableDateTime.meta({ description: "When the platform confirmed the claim's cancellation or nullification (status `cancelled`); null otherwise." }),
  information_requests_open: z.int().min(0).meta({ description: "Payers' information requests about this claim still waiting for the clinic's answer." }),
  paid: ApiMoneySchema.meta({ description: "What the payer has paid for this claim so far, over every remittance (PaymentReconciliation) matched to it; null when nothing yet." }),
  remittance: z
    .strictObject({
      id: z.string().meta({ description: "The payer's payment identifier of the latest remittance paying this claim (else its platform id)." }),
      date: z.iso.date().meta({ description: "The remittance's payment date." }),
      short_paid: z.boolean().meta({ description: "Paid less than the adjudicated benefit." }),
    })
    .nullable()
    .meta({ description: "The latest remittance that paid this claim; null when none." }),
});
export type ApiClaim = z.infer<typeof ApiClaimSchema>;

/** One page of `GET /v1/claims`. */
export const ClaimPageSchema = z.strictObject({
  data: z.array(ApiClaimSchema),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});

function money(value: unknown, fallbackCurrency: string | null): ApiMoney | null {
  if (typeof value !== "object" || value === null) return null;
  const { value: amount, currency } = value as { value?: unknown; currency?: unknown };
  const minor = typeof amount === "number" ? toMinorUnits(amount) : undefined;
  if (minor === undefined) return null;
  const c = typeof currency === "string" ? currency : fallbackCurrency;
  return c ? { value: minorToDecimal(minor), currency: c } : null;
}

/** The answer's totals as stated (lib/submissions statedAmounts: the one reading of a decision's money). */
function statedOf(row: ClaimRow): StatedAmounts | undefined {
  if (typeof row.stated_total === "object" && row.stated_total !== null) return statedAmounts(row.stated_total as Partial<Record<AmountCategory, MoneyView>>);
  return typeof row.response_raw === "object" && row.response_raw !== null ? statedTotals(row.response_raw as Record<string, unknown>) : undefined;
}

const statedMoney = (minor: number | undefined, currency: string | null): ApiMoney | null => (minor === undefined ? null : { value: minorToDecimal(minor), currency: currency ?? "SAR" });

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** What remittances paid a claim (lib/payments claimPayments), for `paid` and `remittance`. */
export interface ApiClaimPayment {
  paidMinor: number;
  paymentDate: string;
  remittance: string;
  shortPaid: boolean;
}

export function toApiClaim(row: ClaimRow, paid?: ApiClaimPayment): ApiClaim {
  const stated = statedOf(row);
  const payment = typeof row.payment === "object" && row.payment !== null ? (row.payment as { date?: unknown; amount?: unknown }) : null;
  return {
    id: row.id,
    identifier: row.identifier_value,
    status: row.status as SubmissionStatus,
    use: "claim",
    patient: row.patient_id,
    insurer: row.insurer_id,
    created: `${row.created_key.slice(0, 23)}Z`,
    submitted_at: iso(row.sent_at),
    decided_at: iso(row.decided_at),
    total: row.total_minor !== null && row.currency ? { value: minorToDecimal(row.total_minor), currency: row.currency } : null,
    benefit: statedMoney(stated?.benefitMinor, row.currency),
    patient_share: statedMoney(stated?.shareMinor, row.currency),
    copay: statedMoney(stated?.copayMinor, row.currency),
    tax: statedMoney(stated?.taxMinor, row.currency),
    payment: payment
      ? { date: typeof payment.date === "string" ? payment.date : null, amount: money(payment.amount, row.currency) }
      : null,
    platform_id: row.platform_id,
    cancelled_at: iso(row.cancelled_at),
    information_requests_open: Number(row.information_requests_open ?? 0),
    paid: paid ? { value: minorToDecimal(paid.paidMinor), currency: row.currency ?? "SAR" } : null,
    remittance: paid ? { id: paid.remittance, date: paid.paymentDate, short_paid: paid.shortPaid } : null,
  };
}
