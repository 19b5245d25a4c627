import { z } from "zod";
import { SUBMISSION_STATUSES } from "@/lib/db";
import type { SubmissionStatus } from "@/lib/db";
import { toMinorUnits } from "@/lib/fhir";
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
  patient_share: ApiMoneySchema.meta({ description: "The patient's share (ClaimResponse total 'copay')." }),
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

/** ClaimResponse.total entry of one adjudication category (`benefit`, `copay`). */
function categoryTotal(totals: unknown, code: string, currency: string | null): ApiMoney | null {
  if (!Array.isArray(totals)) return null;
  for (const entry of totals as { category?: { coding?: { code?: unknown }[] }; amount?: unknown }[]) {
    if (entry?.category?.coding?.some((c) => c?.code === code)) return money(entry.amount, currency);
  }
  return null;
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** What remittances paid a claim (lib/payments claimPayments), for `paid` and `remittance`. */
export interface ApiClaimPayment {
  paidMinor: number;
  paymentDate: string;
  remittance: string;
  shortPaid: boolean;
}

export function toApiClaim(row: ClaimRow, paid?: ApiClaimPayment): ApiClaim {
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
    benefit: categoryTotal(row.adjudication_total, "benefit", row.currency),
    patient_share: categoryTotal(row.adjudication_total, "copay", row.currency),
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
