import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { AgingTable } from "@/components/payments/aging-table";
import { PaymentsLive } from "@/components/payments/payments-live";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";

const num = { align: "end", className: "px-3 py-2 tabular-nums" } as const;
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { remittanceWord } from "@/lib/i18n";
import { formatMoney } from "@/lib/money";
import { insurerNames } from "@/lib/patients";
import { listRemittances } from "@/lib/payments";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payments"))("title") };
}

/** Billing's Payments area: remittances as they arrived (unmatched and short-paid lines counted) and the A/R aging. */
export default staffPage("payments", async function PaymentsPage(_props: object, staff: StaffPageContext) {
  const { user } = staff;
  const [t, words, format, locale, db] = [await getTranslations("payments"), await getTranslations("statusWords"), await getFormatter(), await getLocale(), staff.db];
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.payments] });
  const [rows, names] = await Promise.all([listRemittances(db), insurerNames(db, locale)]);
  const viewKey = await staff.audit({ action: "payments.view", outcome: "success", details: { rows: rows.length } });
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <PaymentsLive stamp={stamp} viewKey={viewKey} />
      {rows.length === 0 ? (
        <Card className="mb-6 p-8 text-center text-sm text-slate-500">{t("empty")}</Card>
      ) : (
        <DataTable
          label={t("title")}
          testId="remittances-table"
          className="mb-6 rounded-lg border border-slate-200 bg-white shadow-sm"
          rows={rows}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ className: "hover:bg-slate-50", "data-testid": "remittance-row", "data-id": r.id })}
          columns={[
            {
              id: "paymentDate",
              header: t("columns.paymentDate"),
              className: "whitespace-nowrap px-3 py-2",
              cell: (r) => (
                <Link href={`/payments/${r.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                  <time dateTime={r.paymentDate}>{format.dateTime(new Date(`${r.paymentDate}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" })}</time>
                </Link>
              ),
            },
            { id: "payer", header: t("columns.payer"), className: "px-3 py-2", cell: (r) => <bdi>{names(r.insurerId ?? "")}</bdi> },
            { id: "paymentId", header: t("columns.paymentId"), className: "px-3 py-2 font-mono text-xs", dir: "ltr", cell: (r) => r.paymentIdentifier ?? r.platformId },
            { id: "amount", header: t("columns.amount"), ...num, cell: (r) => formatMoney(r.amountMinor, locale, r.currency) },
            { id: "lines", header: t("columns.lines"), ...num, cell: (r) => r.lines },
            { id: "unmatched", header: t("columns.unmatched"), ...num, testId: "unmatched-count", cellProps: (r) => ({ className: r.unmatched ? "font-semibold text-red-800" : "" }), cell: (r) => r.unmatched },
            { id: "shortPaid", header: t("columns.shortPaid"), ...num, testId: "short-paid-count", cellProps: (r) => ({ className: r.shortPaid ? "font-semibold text-amber-900" : "" }), cell: (r) => r.shortPaid },
            {
              id: "status",
              header: t("columns.status"),
              className: "px-3 py-2",
              cell: (r) => {
                const state = remittanceWord(r);
                return <Badge tone={state.tone}>{words(state.key)}</Badge>;
              },
            },
          ]}
        />
      )}
      <AgingTable />
    </>
  );
});
