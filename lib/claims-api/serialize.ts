import { toMinorUnits } from "@/lib/fhir";
import { minorToDecimal } from "@/lib/money";
import type { ClaimRow } from "./query";

/** A claim as `GET /v1/claims` shows it. Field names are stable: see the OpenAPI document. */
export interface ApiClaim {
  id: string;
  identifier: string | null;
  status: string;
  use: string;
  patient: string;
  insurer: string | null;
  created: string;
  submitted_at: string | null;
  decided_at: string | null;
  total: ApiMoney | null;
  benefit: ApiMoney | null;
  patient_share: ApiMoney | null;
  payment: { date: string | null; amount: ApiMoney | null } | null;
  platform_id: string | null;
}

/** Money as an exact decimal string with two decimals (`"250.00"`), never a float. */
export interface ApiMoney {
  value: string;
  currency: string;
}

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

export function toApiClaim(row: ClaimRow): ApiClaim {
  const payment = typeof row.payment === "object" && row.payment !== null ? (row.payment as { date?: unknown; amount?: unknown }) : null;
  return {
    id: row.id,
    identifier: row.identifier_value,
    status: row.status,
    use: row.kind,
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
  };
}
