import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { BENEFIT_CATEGORIES, findCode, type BenefitCategoryCode } from "@/lib/fhir/browser";
import { formatMoney } from "@/lib/money";
import type { WorklistRow } from "@/lib/visits";
import type { Column } from "@/components/ui/data-table";
import { SortableTable } from "@/components/ui/sortable-table";
import type { SortState } from "@/components/ui/sort-rows";
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
  if (verdict === "no_coverage" && row.detail?.reason === "coverage_discovered") return <>{t("coverage_discovered")}</>;
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

/** The worklist's sortable columns (`?sort=` on the list's page). */
export const WORKLIST_SORTABLE = ["patient", "date", "insurer", "verdict"] as const;

export async function WorklistTable({
  rows,
  canCheck,
  canAuthorize,
  sort,
}: {
  rows: WorklistRow[];
  canCheck: boolean;
  canAuthorize: boolean;
  sort: { state: SortState | undefined; href: (by: string, desc: boolean) => string };
}) {
  const t = await getTranslations("visits");
  const locale = await getLocale();
  if (rows.length === 0) return <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">{t("empty")}</p>;
  const cell = "px-3 py-2";
  const insurer = (row: WorklistRow) => (locale === "ar" ? row.insurerNameAr : row.insurerNameEn) ?? row.insurerId ?? "—";
  const columns: Column<WorklistRow>[] = [
    {
      id: "patient",
      header: t("columns.patient"),
      className: cell,
      sortValue: (row) => row.patientName ?? row.nationalId,
      cell: (row) => (
        <>
          <div className="font-medium text-slate-900">{row.patientName ?? "—"}</div>
          <div dir="ltr" className="font-mono text-xs text-slate-600 rtl:text-end">{row.nationalId}</div>
        </>
      ),
    },
    { id: "date", header: t("columns.date"), className: `whitespace-nowrap ${cell}`, dir: "ltr", sortValue: (row) => row.serviceDate, cell: (row) => row.serviceDate },
    { id: "insurer", header: t("columns.insurer"), className: cell, sortValue: insurer, cell: insurer },
    {
      id: "services",
      header: t("columns.services"),
      className: cell,
      cell: (row) =>
        row.services.length === 0 ? (
          "—"
        ) : (
          <ul>
            {row.services.map((s) => (
              <li key={s}>{serviceName(s, locale)}</li>
            ))}
          </ul>
        ),
    },
    {
      id: "verdict",
      header: t("columns.verdict"),
      className: cell,
      sortValue: (row) => (row.checkState === "waiting" ? undefined : row.verdict ?? undefined),
      cell: (row) => <VerdictBadge verdict={row.checkState === "waiting" ? null : row.verdict} />,
    },
    { id: "why", header: t("columns.why"), className: `max-w-sm ${cell} text-slate-700`, cell: (row) => <Why row={row} /> },
    {
      id: "actions",
      header: <span className="print:hidden">{t("columns.actions")}</span>,
      label: "",
      className: `space-y-1 ${cell} print:hidden`,
      cell: (row) => (
        <>
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
        </>
      ),
    },
  ];
  return (
    <SortableTable
      label={t("worklistTitle")}
      testId="worklist"
      className="rounded-lg border border-slate-200 bg-white print:border-0"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.visitId}
      rowProps={(row) => ({ "data-testid": "worklist-row", "data-verdict": row.verdict ?? "waiting", className: "align-top break-inside-avoid" })}
      sort={sort}
    />
  );
}
