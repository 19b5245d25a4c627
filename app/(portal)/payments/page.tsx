import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { AgingTable } from "@/components/payments/aging-table";
import { PaymentsLive } from "@/components/payments/payments-live";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/exchange";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { actorOf, requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { remittanceWord } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";
import { insurerNames } from "@/lib/patients";
import { listRemittances } from "@/lib/payments";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payments"))("title") };
}

/** Billing's Payments area: remittances as they arrived (unmatched and short-paid lines counted) and the A/R aging. */
export default async function PaymentsPage() {
  const user = await requireArea("payments");
  const [t, words, format, locale, db, ctx] = [await getTranslations("payments"), await getTranslations("statusWords"), await getFormatter(), await getLocale(), await getDb(), await requestContext()];
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.payments] });
  const [rows, names] = await Promise.all([listRemittances(db), insurerNames(db, locale)]);
  await audit(db, { actor: actorOf(user), action: "payments.view", outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { rows: rows.length } });
  const cols = ["paymentDate", "payer", "paymentId", "amount", "lines", "unmatched", "shortPaid", "status"] as const;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <PaymentsLive stamp={stamp} />
      {rows.length === 0 ? (
        <Card className="mb-6 p-8 text-center text-sm text-slate-500">{t("empty")}</Card>
      ) : (
        <div className="mb-6 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="remittances-table">
            <caption className="sr-only">{t("title")}</caption>
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {cols.map((c) => (
                  <th key={c} scope="col" className={`px-3 py-3 ${["amount", "lines", "unmatched", "shortPaid"].includes(c) ? "text-end" : "text-start"}`}>
                    {t(`columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => {
                const state = remittanceWord(r);
                return (
                  <tr key={r.id} className="hover:bg-slate-50" data-testid="remittance-row" data-id={r.id}>
                    <td className="whitespace-nowrap px-3 py-2">
                      <Link href={`/payments/${r.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                        <time dateTime={r.paymentDate}>{format.dateTime(new Date(`${r.paymentDate}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" })}</time>
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <bdi>{names(r.insurerId ?? "")}</bdi>
                    </td>
                    <td className="px-3 py-2 font-mono text-xs" dir="ltr">
                      {r.paymentIdentifier ?? r.platformId}
                    </td>
                    <td className="px-3 py-2 text-end tabular-nums">{formatMoney(r.amountMinor, locale, r.currency)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{r.lines}</td>
                    <td className={`px-3 py-2 text-end tabular-nums ${r.unmatched ? "font-semibold text-red-800" : ""}`} data-testid="unmatched-count">
                      {r.unmatched}
                    </td>
                    <td className={`px-3 py-2 text-end tabular-nums ${r.shortPaid ? "font-semibold text-amber-900" : ""}`} data-testid="short-paid-count">
                      {r.shortPaid}
                    </td>
                    <td className="px-3 py-2">
                      <Badge tone={state.tone}>{words(state.key)}</Badge>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <AgingTable />
    </>
  );
}
