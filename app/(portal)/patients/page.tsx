import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { SortableTable } from "@/components/ui/sortable-table";
import { sortFromParams, sortHref } from "@/components/ui/sort-rows";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { dayAsDate, patientSearchSchema, auditedSearch } from "@/lib/patients";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("patients"))("title") };
}

const LIMIT = 25;

export default staffPage("patients", async function PatientsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const [t, format, locale] = [await getTranslations("patients"), await getFormatter(), await getLocale()];
  const params = await searchParams;
  const raw = params.q;
  const cell = "px-4 py-3";
  const { q } = patientSearchSchema.parse({ q: typeof raw === "string" ? raw.slice(0, 100) : "" });
  const results = q ? await auditedSearch(staff.db, staff.audit, q, LIMIT) : undefined;

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Link href="/patients/new" className={buttonClasses("primary")}>
            <span aria-hidden className="text-lg leading-none">+</span> {t("register")}
          </Link>
        }
      />
      <Card className="mb-6 p-4">
        <form method="get" role="search" aria-label={t("title")} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="patient-q" className="block text-sm font-medium text-slate-800">
              {t("search.label")}
            </label>
            <input
              id="patient-q"
              name="q"
              type="search"
              defaultValue={q}
              placeholder={t("search.placeholder")}
              autoComplete="off"
              autoFocus
              maxLength={100}
              aria-describedby="patient-q-hint"
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30"
            />
            <p id="patient-q-hint" className="mt-1 text-xs text-slate-500">
              {t("search.hint")}
            </p>
          </div>
          <button type="submit" className={buttonClasses("primary", "sm:mb-5")}>
            {t("search.submit")}
          </button>
        </form>
      </Card>

      {results === undefined ? (
        <Card className="p-8 text-center text-sm text-slate-600">{t("search.start")}</Card>
      ) : results.length === 0 ? (
        <Card className="p-8 text-center">
          <p className="font-medium text-slate-900" role="status">
            {t("search.noResults", { query: q })}
          </p>
          <p className="mt-1 text-sm text-slate-600">{t("search.noResultsHelp")}</p>
          <Link href="/patients/new" className={buttonClasses("secondary", "mt-4")}>
            {t("register")}
          </Link>
        </Card>
      ) : (
        <Card>
          <p role="status" className="border-b border-slate-100 px-4 py-3 text-sm text-slate-600">
            {t("search.results", { count: results.length })}
            {results.length === LIMIT && <span className="block text-xs">{t("search.more", { count: LIMIT })}</span>}
          </p>
          <SortableTable
            label={t("search.results", { count: results.length })}
            rows={results}
            rowKey={(p) => p.id}
            rowProps={() => ({ className: "align-middle hover:bg-slate-50" })}
            sort={{ state: sortFromParams(params, ["name", "nationalId", "birthDate"]), href: (by, desc) => sortHref("/patients", params, by, desc) }}
            columns={[
              {
                id: "name",
                header: t("columns.name"),
                className: cell,
                keyFigure: true,
                sortValue: (p) => `${p.givenName} ${p.familyName}`,
                cell: (p) => (
                  <Link href={`/patients/${p.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                    {p.givenName} {p.familyName}
                  </Link>
                ),
              },
              { id: "nationalId", header: t("columns.nationalId"), className: `${cell} font-mono tabular-nums`, sortValue: (p) => p.nationalId, cell: (p) => <span dir="ltr">{p.nationalId}</span> },
              {
                id: "birthDate",
                header: t("columns.birthDate"),
                className: `whitespace-nowrap ${cell}`,
                sortValue: (p) => p.birthDate,
                cell: (p) => format.dateTime(dayAsDate(p.birthDate), { dateStyle: "medium", timeZone: "UTC" }),
              },
              {
                id: "insurers",
                header: t("columns.insurers"),
                className: cell,
                cell: (p) =>
                  p.coverages.length === 0 ? (
                    <Badge tone="amber">{t("noCoverage")}</Badge>
                  ) : (
                    <ul className="flex flex-wrap gap-1">
                      {p.coverages.map((c) => (
                        <li key={c.id}>
                          <Badge tone="blue">{locale === "ar" ? c.insurerNameAr : c.insurerNameEn}</Badge>
                        </li>
                      ))}
                    </ul>
                  ),
              },
              {
                id: "actions",
                header: t("columns.actions"),
                label: "",
                className: cell,
                cell: (p) => (
                  <div className="flex flex-wrap gap-2">
                    <Link href={`/eligibility?patient=${p.id}`} aria-label={t("checkEligibilityNamed", { name: `${p.givenName} ${p.familyName}` })} className={buttonClasses("primary", "px-3 py-1.5")}>
                      {t("checkEligibility")}
                    </Link>
                    <Link href={`/patients/${p.id}`} aria-label={t("openNamed", { name: `${p.givenName} ${p.familyName}` })} className={buttonClasses("secondary", "px-3 py-1.5")}>
                      {t("open")}
                    </Link>
                  </div>
                ),
              },
            ]}
          />
        </Card>
      )}
    </>
  );
});
