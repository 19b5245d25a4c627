import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { PrintButton } from "@/components/print/print-button";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { WORKLIST_SORTABLE, WorklistTable } from "@/components/visits/worklist-table";
import { sortFromParams, sortHref } from "@/components/ui/sort-rows";
import { staffPage, type StaffPageContext, canAccess } from "@/lib/auth";
import { VISIT_VERDICTS } from "@/lib/db";
import { parseWorklistFilters, recentVisitLists, worklist } from "@/lib/visits";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("visits"))("worklistTitle") };
}

const field = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

export default staffPage("visits", async function VisitsWorklistPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const { user } = staff;
  const t = await getTranslations("visits");
  const params = await searchParams;
  const filters = parseWorklistFilters(params);
  const db = staff.db;
  const [rows, lists] = await Promise.all([worklist(db, filters), recentVisitLists(db, 10)]);
  // Reading the worklist shows patient data: audited like any patient list.
  await staff.audit({ action: "visits.worklist_view", outcome: "success", details: { rows: rows.length, verdict: filters.verdict ?? null } });
  // The portal's one format, in the clinic's time zone (next-intl's formatter carries CLINIC_TIME_ZONE).
  const format = await getFormatter();
  const time = (d: Date) => <time dateTime={d.toISOString()}>{format.dateTime(d, { dateStyle: "medium", timeStyle: "short" })}</time>;
  return (
    <>
      <PageHeader
        title={t("worklistTitle")}
        description={t("description")}
        actions={
          <div className="no-print flex flex-wrap gap-2">
            <PrintButton label={t("print")} />
            <Link href="/visits/new" className={buttonClasses("primary")}>
              {t("newList")}
            </Link>
          </div>
        }
      />
      <form method="get" className="no-print mb-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5" aria-label={t("filters.legend")}>
        <div>
          <label htmlFor="f-date" className="text-sm font-medium text-slate-800">{t("filters.date")}</label>
          <input id="f-date" type="date" name="date" defaultValue={filters.date ?? ""} className={field} />
        </div>
        <div>
          <label htmlFor="f-verdict" className="text-sm font-medium text-slate-800">{t("filters.verdict")}</label>
          <select id="f-verdict" name="verdict" defaultValue={filters.verdict ?? ""} className={field}>
            <option value="">{t("filters.all")}</option>
            <option value="problems">{t("filters.problems")}</option>
            <option value="unchecked">{t("filters.unchecked")}</option>
            {VISIT_VERDICTS.map((v) => (
              <option key={v} value={v}>{t(`verdicts.${v}`)}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="f-list" className="text-sm font-medium text-slate-800">{t("filters.list")}</label>
          <select id="f-list" name="list" defaultValue={filters.listId ?? ""} className={field}>
            <option value="">{t("filters.allLists")}</option>
            {lists.map((l) => (
              <option key={l.id} value={l.id}>{l.name}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="f-q" className="text-sm font-medium text-slate-800">{t("filters.search")}</label>
          <input id="f-q" type="search" name="q" defaultValue={filters.q ?? ""} className={field} />
        </div>
        <div className="flex items-end gap-2">
          <button type="submit" className={buttonClasses("primary")}>{t("filters.apply")}</button>
          <Link href="/visits" className={buttonClasses("secondary")}>{t("filters.clear")}</Link>
        </div>
      </form>
      <p className="mb-2 text-sm text-slate-700" data-testid="worklist-count">{t("count", { count: rows.length })}</p>
      <WorklistTable
        rows={rows}
        canCheck={canAccess(user.roles, "eligibility")}
        canAuthorize={canAccess(user.roles, "authorizations")}
        sort={{ state: sortFromParams(params, WORKLIST_SORTABLE), href: (by, desc) => sortHref("/visits", params, by, desc) }}
      />
      <p className="mt-2 text-xs text-slate-600">{t("help")}</p>
      <Card className="no-print mt-8 p-4">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t("recentLists")}</h2>
        {lists.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noLists")}</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {lists.map((l) => (
              <li key={l.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link href={`/visits/lists/${l.id}`} className="font-medium text-brand-800 underline underline-offset-2">{l.name}</Link>
                <span className="text-slate-600">
                  {t(`sources.${l.source}`)} · {time(l.createdAt)} · {t("listSummary", { visits: Number(l.visits), checked: Number(l.checked), bad: new Set(l.problems.map((p) => p.line)).size })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
});
