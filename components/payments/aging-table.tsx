import { getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { getDb } from "@/lib/db";
import { insurerNames } from "@/lib/patients";
import { formatMoney } from "@/lib/money";
import { AGING_BUCKETS, arAging } from "@/lib/payments";

/** Accounts-receivable aging per insurer (0–30, 31–60, 61–90, 90+ days since the decision). */
export async function AgingTable({ asOf = new Date() }: { asOf?: Date }) {
  const [t, locale, db] = [await getTranslations("payments.aging"), await getLocale(), await getDb()];
  const [rows, names] = await Promise.all([arAging(db, asOf), insurerNames(db, locale)]);
  const totals = AGING_BUCKETS.map((b) => rows.reduce((s, r) => s + r.buckets[b].minor, 0));
  const cell = "px-3 py-2 tabular-nums";
  const columns: Column<(typeof rows)[number]>[] = [
    { id: "insurer", header: t("insurer"), rowHeader: true, className: "px-3 py-2 font-medium", cell: (r) => <bdi>{names(r.insurerId)}</bdi> },
    ...AGING_BUCKETS.map(
      (b): Column<(typeof rows)[number]> => ({
        id: b,
        header: <bdi dir="ltr">{b}</bdi>,
        label: b,
        align: "end",
        className: cell,
        cellProps: (r) => ({ className: b === "90+" && r.buckets[b].minor > 0 ? "font-semibold text-red-800" : "", "data-bucket": b, "data-count": r.buckets[b].count }),
        cell: (r) => (
          <>
            {r.buckets[b].count === 0 ? "—" : formatMoney(r.buckets[b].minor, locale)}
            {r.buckets[b].count > 0 && <span className="block text-xs font-normal text-slate-500">{t("claims", { n: r.buckets[b].count })}</span>}
          </>
        ),
      }),
    ),
    { id: "total", header: t("total"), align: "end", className: `${cell} font-semibold`, cell: (r) => formatMoney(r.totalMinor, locale) },
  ];
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
        <DataTable
          label={t("title")}
          testId="aging-table"
          columns={columns}
          rows={rows}
          rowKey={(r) => r.insurerId}
          rowProps={(r) => ({ "data-testid": "aging-row", "data-insurer": r.insurerId })}
          maxHeight=""
          dense
          footer={
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
          }
        />
      )}
    </Card>
  );
}
