import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { callerOf, dayAsDate, patientSearchSchema, auditedSearch } from "@/lib/patients";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("patients"))("title") };
}

const LIMIT = 25;

export default async function PatientsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireArea("patients");
  const [t, format, locale] = [await getTranslations("patients"), await getFormatter(), await getLocale()];
  const raw = (await searchParams).q;
  const { q } = patientSearchSchema.parse({ q: typeof raw === "string" ? raw.slice(0, 100) : "" });
  const results = q ? await auditedSearch(await getDb(), await callerOf(user), q, LIMIT) : undefined;

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
        <Card className="overflow-x-auto">
          <p role="status" className="border-b border-slate-100 px-4 py-3 text-sm text-slate-600">
            {t("search.results", { count: results.length })}
            {results.length === LIMIT && <span className="block text-xs">{t("search.more", { count: LIMIT })}</span>}
          </p>
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t("search.results", { count: results.length })}</caption>
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {(["name", "nationalId", "birthDate", "insurers", "actions"] as const).map((c) => (
                  <th key={c} scope="col" className="px-4 py-3 text-start">
                    {t(`columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {results.map((p) => {
                const name = `${p.givenName} ${p.familyName}`;
                return (
                  <tr key={p.id} className="align-middle hover:bg-slate-50">
                    <td className="px-4 py-3">
                      <Link href={`/patients/${p.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                        {name}
                      </Link>
                    </td>
                    <td className="px-4 py-3 font-mono tabular-nums">
                      <span dir="ltr">{p.nationalId}</span>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3">{format.dateTime(dayAsDate(p.birthDate), { dateStyle: "medium", timeZone: "UTC" })}</td>
                    <td className="px-4 py-3">
                      {p.coverages.length === 0 ? (
                        <Badge tone="amber">{t("noCoverage")}</Badge>
                      ) : (
                        <ul className="flex flex-wrap gap-1">
                          {p.coverages.map((c) => (
                            <li key={c.id}>
                              <Badge tone="blue">{locale === "ar" ? c.insurerNameAr : c.insurerNameEn}</Badge>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap gap-2">
                        <Link href={`/eligibility?patient=${p.id}`} aria-label={t("checkEligibilityNamed", { name })} className={buttonClasses("primary", "px-3 py-1.5")}>
                          {t("checkEligibility")}
                        </Link>
                        <Link href={`/patients/${p.id}`} aria-label={t("openNamed", { name })} className={buttonClasses("secondary", "px-3 py-1.5")}>
                          {t("open")}
                        </Link>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
      )}
    </>
  );
}
