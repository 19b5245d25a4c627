import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { BENEFIT_CATEGORIES, findCode, type BenefitCategoryCode } from "@/lib/fhir/browser";
import { formatMoney } from "@/lib/money";
import type { WorklistRow } from "@/lib/visits";
import { AuthorizationButton } from "./authorization-button";
import { VerdictBadge } from "./verdict-badge";

function categoryName(code: string | undefined, locale: string): string {
  if (!code) return "";
  const known = (BENEFIT_CATEGORIES as Record<string, { en: string; ar: string } | undefined>)[code as BenefitCategoryCode];
  return known ? known[locale === "ar" ? "ar" : "en"] : code;
}

function serviceName(code: string | undefined, locale: string): string {
  if (!code) return "";
  const entry = findCode("cpt", code);
  return entry ? `${entry.display[locale === "ar" ? "ar" : "en"]} (${code})` : code;
}

/** Why the verdict: one sentence per problem, in the page's language. */
async function Why({ row }: { row: WorklistRow }) {
  const t = await getTranslations("visits.why");
  const locale = await getLocale();
  if (row.checkState === "waiting") return null;
  const verdict = row.verdict;
  const problems = row.detail?.problems ?? [];
  if (verdict === "platform_error") return <>{t("platform_error", { code: row.detail?.errorCode ?? "none" })}</>;
  if (verdict === "not_registered") return <>{t("not_registered")}</>;
  if (verdict === "not_in_force") return <>{t("not_in_force")}</>;
  if (verdict === "no_coverage" && row.detail?.reason === "no_coverage_registered") return <>{t("no_coverage_registered")}</>;
  if (verdict === "no_coverage" && !problems.some((p) => p.service)) return <>{t("no_coverage_platform")}</>;
  if (verdict === "in_force" || problems.length === 0) return <>{t("in_force")}</>;
  return (
    <ul className="space-y-0.5">
      {problems.map((p, i) => (
        <li key={i}>
          {t(p.verdict as "benefit_low", {
            service: serviceName(p.service, locale),
            category: categoryName(p.category, locale),
            remaining: p.remainingMinor !== undefined ? formatMoney(p.remainingMinor, locale) : "",
            used: p.usedPercent ?? 0,
          })}
        </li>
      ))}
    </ul>
  );
}

export async function WorklistTable({ rows, canCheck, canAuthorize }: { rows: WorklistRow[]; canCheck: boolean; canAuthorize: boolean }) {
  const t = await getTranslations("visits");
  const locale = await getLocale();
  if (rows.length === 0) return <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">{t("empty")}</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white print:overflow-visible print:border-0">
      <table className="w-full text-start text-sm" data-testid="worklist">
        <caption className="sr-only">{t("worklistTitle")}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 print:bg-white">
          <tr>
            <th scope="col" className="px-3 py-2 text-start">{t("columns.patient")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("columns.date")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("columns.insurer")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("columns.services")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("columns.verdict")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("columns.why")}</th>
            <th scope="col" className="px-3 py-2 text-start print:hidden">{t("columns.actions")}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.visitId} data-testid="worklist-row" data-verdict={row.verdict ?? "waiting"} className="align-top break-inside-avoid">
              <td className="px-3 py-2">
                <div className="font-medium text-slate-900">{row.patientName ?? "—"}</div>
                <div dir="ltr" className="font-mono text-xs text-slate-600 rtl:text-end">{row.nationalId}</div>
              </td>
              <td className="whitespace-nowrap px-3 py-2" dir="ltr">{row.serviceDate}</td>
              <td className="px-3 py-2">{(locale === "ar" ? row.insurerNameAr : row.insurerNameEn) ?? row.insurerId ?? "—"}</td>
              <td className="px-3 py-2">
                {row.services.length === 0 ? "—" : (
                  <ul>
                    {row.services.map((s) => (
                      <li key={s}>{serviceName(s, locale)}</li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="px-3 py-2">
                <VerdictBadge verdict={row.checkState === "waiting" ? null : row.verdict} />
              </td>
              <td className="max-w-sm px-3 py-2 text-slate-700">
                <Why row={row} />
              </td>
              <td className="space-y-1 px-3 py-2 print:hidden">
                {row.checkId && canCheck && (
                  <div>
                    <Link href={`/eligibility/${row.checkId}`} className="font-medium text-brand-800 underline underline-offset-2">
                      {t("links.result")}
                    </Link>
                  </div>
                )}
                {row.patientId && canAuthorize && row.services.length > 0 && row.verdict !== "in_force" && (
                  <div>
                    <AuthorizationButton visitId={row.visitId} />
                  </div>
                )}
                {!row.patientId && canCheck && (
                  <div>
                    <Link href="/patients/new" className="font-medium text-brand-800 underline underline-offset-2">
                      {t("links.register")}
                    </Link>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
