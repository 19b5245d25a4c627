import { Suspense } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { WidgetSkeleton } from "@/components/dashboard/widget";
import { getDb } from "@/lib/db";
import { claimsAtRisk } from "@/lib/deadlines";
import { env } from "@/lib/env";
import { formatMoney } from "@/lib/money";
import { insurerNames } from "@/lib/patients";
import { paidVsAdjudicated } from "@/lib/payments";
import { clinicToday } from "@/lib/time";
import { AgingTable } from "./aging-table";

/**
 * The managers' dashboard widgets of decision 047 — paid vs adjudicated (in the dashboard's range), A/R
 * aging, claims at filing-deadline risk — each streaming on its own. Inserted in the dashboard page
 * with one line.
 */
export function PaymentsDashboardWidgets({ range }: { range: { start: Date; end: Date } }) {
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-2" data-testid="payments-widgets">
      <Suspense fallback={<WidgetSkeleton name="insurers" />}>
        <PaidVsAdjudicated range={range} />
      </Suspense>
      <Suspense fallback={<WidgetSkeleton name="insurers" />}>
        <AtRisk />
      </Suspense>
      <div className="lg:col-span-2">
        <Suspense fallback={<WidgetSkeleton name="insurers" />}>
          <AgingTable />
        </Suspense>
      </div>
    </div>
  );
}

async function PaidVsAdjudicated({ range }: { range: { start: Date; end: Date } }) {
  const [t, locale, db] = [await getTranslations("payments.paidVsAdjudicated"), await getLocale(), await getDb()];
  const [rows, names] = await Promise.all([paidVsAdjudicated(db, range), insurerNames(db, locale)]);
  const money = "px-3 py-2 tabular-nums";
  const pct = (part: number, whole: number) => (whole > 0 ? new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(part / whole) : "—");
  return (
    <Card className="p-4">
      <h2 className="mb-3 text-base font-semibold text-slate-900" id="pva-title">
        {t("title")}
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{t("empty")}</p>
      ) : (
        <DataTable
          label={t("title")}
          testId="paid-vs-adjudicated"
          maxHeight=""
          dense
          rows={rows}
          rowKey={(r) => r.insurerId}
          columns={[
            { id: "insurer", header: t("insurer"), rowHeader: true, className: "px-3 py-2 font-medium", cell: (r) => <bdi>{names(r.insurerId)}</bdi> },
            { id: "adjudicated", header: t("adjudicated"), align: "end", className: money, cell: (r) => formatMoney(r.adjudicatedMinor, locale) },
            { id: "paid", header: t("paid"), align: "end", className: money, cell: (r) => formatMoney(r.paidMinor, locale) },
            { id: "rate", header: t("rate"), align: "end", className: money, cell: (r) => pct(r.paidMinor, r.adjudicatedMinor) },
          ]}
        />
      )}
    </Card>
  );
}

async function AtRisk() {
  const [t, locale, db] = [await getTranslations("payments.atRisk"), await getLocale(), await getDb()];
  const timeZone = env().CLINIC_TIME_ZONE;
  const [rows, names] = await Promise.all([claimsAtRisk(db, clinicToday(timeZone), timeZone), insurerNames(db, locale)]);
  const soon = rows.reduce((s, r) => s + r.soon, 0);
  const overdue = rows.reduce((s, r) => s + r.overdue, 0);
  return (
    <Card className="p-4">
      <h2 className="mb-3 text-base font-semibold text-slate-900">{t("title")}</h2>
      <div className="flex gap-6" data-testid="at-risk">
        <p>
          <span className="block text-3xl font-semibold tabular-nums text-amber-800" data-testid="at-risk-soon">{soon}</span>
          <span className="text-sm text-slate-600">{t("soon")}</span>
        </p>
        <p>
          <span className="block text-3xl font-semibold tabular-nums text-red-800" data-testid="at-risk-overdue">{overdue}</span>
          <span className="text-sm text-slate-600">{t("overdue")}</span>
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{t("empty")}</p>
      ) : (
        <ul className="mt-3 space-y-1 text-sm">
          {rows.map((r) => (
            <li key={r.insurerId} className="flex justify-between gap-3">
              <bdi>{names(r.insurerId)}</bdi>
              <span className="tabular-nums">
                {r.soon} · <span className="text-red-800">{r.overdue}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
