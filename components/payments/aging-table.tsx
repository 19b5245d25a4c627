import { getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { insurerNames } from "@/lib/patients";
import { formatMoney } from "@/lib/money";
import { AGING_BUCKETS, arAging } from "@/lib/payments";

/** Accounts-receivable aging per insurer (0–30, 31–60, 61–90, 90+ days since the decision). */
export async function AgingTable({ asOf = new Date() }: { asOf?: Date }) {
  const [t, locale, db] = [await getTranslations("payments.aging"), await getLocale(), await getDb()];
  const [rows, names] = await Promise.all([arAging(db, asOf), insurerNames(db, locale)]);
  const totals = AGING_BUCKETS.map((b) => rows.reduce((s, r) => s + r.buckets[b].minor, 0));
  return (
    <Card className="p-4">
      <h2 className="text-base font-semibold text-slate-900" id="aging-title">
        {t("title")}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t("description")}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="aging-empty">
          {t("empty")}
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm" aria-labelledby="aging-title" data-testid="aging-table">
            <thead className="bg-slate-50 text-xs font-semibold text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("insurer")}
                </th>
                {AGING_BUCKETS.map((b) => (
                  <th key={b} scope="col" className="px-3 py-2 text-end">
                    <bdi dir="ltr">{b}</bdi>
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-end">
                  {t("total")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={r.insurerId} data-testid="aging-row" data-insurer={r.insurerId}>
                  <th scope="row" className="px-3 py-2 text-start font-medium">
                    <bdi>{names(r.insurerId)}</bdi>
                  </th>
                  {AGING_BUCKETS.map((b) => (
                    <td key={b} className={`px-3 py-2 text-end tabular-nums ${b === "90+" && r.buckets[b].minor > 0 ? "font-semibold text-red-800" : ""}`} data-bucket={b} data-count={r.buckets[b].count}>
                      {r.buckets[b].count === 0 ? "—" : formatMoney(r.buckets[b].minor, locale)}
                      {r.buckets[b].count > 0 && <span className="block text-xs font-normal text-slate-500">{t("claims", { n: r.buckets[b].count })}</span>}
                    </td>
                  ))}
                  <td className="px-3 py-2 text-end font-semibold tabular-nums">{formatMoney(r.totalMinor, locale)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t-2 border-slate-200 text-sm font-semibold">
              <tr>
                <th scope="row" className="px-3 py-2 text-start">
                  {t("total")}
                </th>
                {totals.map((v, i) => (
                  <td key={AGING_BUCKETS[i]} className="px-3 py-2 text-end tabular-nums">
                    {formatMoney(v, locale)}
                  </td>
                ))}
                <td className="px-3 py-2 text-end tabular-nums">{formatMoney(totals.reduce((a, b) => a + b, 0), locale)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Card>
  );
}
