import { getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { buildTable, insurerNames, isDenialTable, loadTable, rangeSearch, type DashboardRange, type TableName } from "@/lib/dashboard";
import { BarChart, TrendChart } from "./charts";
import { DataTable } from "./data-table";

function Frame({ name, title, children, csvHref, csvLabel }: { name: TableName; title: string; children: React.ReactNode; csvHref?: string; csvLabel?: string }) {
  return (
    <Card className="flex flex-col p-4" >
      <div className="mb-3 flex items-start justify-between gap-3" data-testid={`dashboard-widget-${name}`}>
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        {csvHref && (
          <a href={csvHref} className="shrink-0 text-sm font-medium text-sky-700 underline-offset-2 hover:underline" data-testid={`dashboard-csv-${name}`} download>
            {csvLabel}
          </a>
        )}
      </div>
      {children}
    </Card>
  );
}

/** One dashboard widget: its chart (or key figure), its table in a <details>, and its CSV link. Streams on its own. */
export async function DashboardWidget({ name, range, linkClaims = false }: { name: TableName; range: DashboardRange; linkClaims?: boolean }) {
  const [t, locale, words, db] = [await getTranslations("dashboard"), await getLocale(), await getTranslations("statusWords"), await getDb()];
  const [data, insurerName] = await Promise.all([loadTable(name, db, range), insurerNames(db, locale)]);
  const table = buildTable(name, data, { t: (k, v) => t(k as never, v as never), words: (k) => words(k as never), locale, insurerName, ...(linkClaims ? { range } : {}) });
  const title = isDenialTable(name) ? t(`denials.widgets.${name}`) : t(`widgets.${name}`);
  const csvHref = `/dashboard/export?${rangeSearch(range)}&table=${name}`;
  if (name === "timing") {
    return (
      <Frame name={name} title={title} csvHref={csvHref} csvLabel={t("downloadCsv")}>
        <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="dashboard-median">
          {table.rows[0]![1]}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {t("medianLabel")} · {table.columns[0]}: {table.rows[0]![0]}
        </p>
      </Frame>
    );
  }
  const chart = table.chart ?? [];
  return (
    <Frame name={name} title={title} csvHref={csvHref} csvLabel={t("downloadCsv")}>
      {name === "denialPractitioners" && (
        <p className="mb-2 text-xs text-slate-600" data-testid="denial-practitioner-note">
          {t("denials.practitionerNote")}
        </p>
      )}
      {table.rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <>
          {name === "trend" || name === "denialTrend" ? (
            <TrendChart items={chart} label={t("chartOf", { title })} locale={locale} />
          ) : (
            <BarChart items={chart} label={t("chartOf", { title })} locale={locale} percent={name === "authorizations"} />
          )}
          <details className="mt-3 group" open={name === "insurers" || name === "authorizations" || name === "reasons" || name === "denialFixable" || name === "denialScrubber" || name === "denialFamilies"}>
            <summary className="cursor-pointer text-sm font-medium text-sky-700">{t("showTable")}</summary>
            <div className="mt-2">
              <DataTable table={table} caption={title} />
            </div>
          </details>
        </>
      )}
    </Frame>
  );
}

export function WidgetSkeleton({ name }: { name: TableName }) {
  return (
    <Card className="p-4">
      <div aria-busy="true" aria-live="polite" data-testid={`dashboard-skeleton-${name}`} className="animate-pulse space-y-3">
        <div className="h-4 w-1/3 rounded bg-slate-200" />
        <div className="h-3 w-full rounded bg-slate-100" />
        <div className="h-3 w-5/6 rounded bg-slate-100" />
        <div className="h-3 w-2/3 rounded bg-slate-100" />
      </div>
    </Card>
  );
}
