import { useFormatter, useLocale, useTranslations } from "next-intl";
import { benefitCategoryName, servicesNeedingAuthorization, type BenefitCategoryView, type InsuranceView } from "@/lib/fhir/browser";
import type { EligibilityCheckView } from "@/lib/eligibility";
import { formatMoney } from "@/lib/money";
import { TableFrame, thClasses, theadClasses } from "@/components/ui/table-frame";
import { DiscoveredCoverages } from "./discovered-coverages";
import { ERROR_KEYS } from "./error-keys";

export { ERROR_KEYS };

function Icon({ kind }: { kind: "ok" | "no" | "warn" }) {
  const paths = {
    ok: "M7 12.5l3.2 3.2L17 9",
    no: "M8.5 8.5l7 7m0-7l-7 7",
    warn: "M12 7.5v6m0 3.2v.3",
  };
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-12 shrink-0 sm:size-14" fill="none">
      <circle cx="12" cy="12" r="11" className="fill-current" />
      <path d={paths[kind]} stroke="white" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The one-line outcome, for the aria-live announcement. */
export function useAnnouncement(check: EligibilityCheckView): string {
  const t = useTranslations("eligibility");
  const format = useFormatter();
  const locale = useLocale();
  const insurer = locale === "ar" ? check.insurer.nameAr : check.insurer.nameEn;
  const date = format.dateTime(new Date(`${check.servicedDate}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" });
  if (check.outcome === "in_force") return t("result.announceInForce", { insurer, date });
  if (check.outcome === "not_in_force") return t("result.announceNotInForce", { insurer, date });
  const key = check.error?.code ? ERROR_KEYS[check.error.code] : undefined;
  return t("result.announceRejected", { reason: key ? t(`errors.${key}`) : t("errors.errOther", { status: check.error?.status ?? 0 }) });
}

/** Big status banner: icon + words + colour, so it cannot be misread (nor rely on colour alone). */
export function OutcomeBanner({ check }: { check: EligibilityCheckView }) {
  const t = useTranslations("eligibility");
  const format = useFormatter();
  const locale = useLocale();
  const insurer = locale === "ar" ? check.insurer.nameAr : check.insurer.nameEn;
  const date = format.dateTime(new Date(`${check.servicedDate}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" });
  const base = "flex items-start gap-4 rounded-xl border-2 p-5 [print-color-adjust:exact] print:border-4";
  if (check.outcome === "in_force") {
    return (
      <div className={`${base} border-emerald-600 bg-emerald-50 text-emerald-700`} data-testid="eligibility-outcome" data-outcome="in_force">
        <Icon kind="ok" />
        <div className="text-emerald-950">
          <p className="text-2xl font-bold tracking-tight sm:text-3xl">{t("result.inForce")}</p>
          <p className="mt-1 text-sm sm:text-base">{t("result.inForceBody", { insurer, date })}</p>
        </div>
      </div>
    );
  }
  if (check.outcome === "not_in_force") {
    return (
      <div className={`${base} border-red-700 bg-red-50 text-red-700`} data-testid="eligibility-outcome" data-outcome="not_in_force">
        <Icon kind="no" />
        <div className="text-red-950">
          <p className="text-2xl font-extrabold uppercase tracking-tight sm:text-3xl">{t(check.benefits?.inForceNotAtSite ? "result.notAtSite" : "result.notInForce")}</p>
          <p className="mt-1 text-sm sm:text-base">{t(check.benefits?.inForceNotAtSite ? "result.notAtSiteBody" : "result.notInForceBody", { insurer, date })}</p>
        </div>
      </div>
    );
  }
  const key = check.error?.code ? ERROR_KEYS[check.error.code] : undefined;
  return (
    <div className={`${base} border-amber-500 bg-amber-50 text-amber-600`} data-testid="eligibility-outcome" data-outcome="rejected">
      <Icon kind="warn" />
      <div className="text-amber-950">
        <p className="text-2xl font-bold tracking-tight sm:text-3xl">{t("result.rejected")}</p>
        <p className="mt-1 text-sm sm:text-base">{key ? t(`errors.${key}`) : t("errors.errOther", { status: check.error?.status ?? 0 })}</p>
        {check.error?.code && (
          <p className="mt-2 text-xs font-medium text-amber-900">
            {t("result.errorCode")}: <span dir="ltr" className="font-mono">{check.error.code}</span>
          </p>
        )}
      </div>
    </div>
  );
}

function barTone(c: BenefitCategoryView): string {
  if (c.remaining && c.remaining.minor === 0) return "bg-red-600";
  if ((c.usedPercent ?? 0) >= 90) return "bg-amber-500";
  return "bg-brand-600";
}

function CategoryRow({ c }: { c: BenefitCategoryView }) {
  const t = useTranslations("eligibility.result");
  const locale = useLocale();
  const name = benefitCategoryName(c.code, locale, c.payerName);
  const money = (m: { minor: number; currency: string } | undefined) => (m ? formatMoney(m.minor, locale, m.currency) : "—");
  const exhausted = c.remaining?.minor === 0 && (c.allowed?.minor ?? 0) > 0;
  const nearly = !exhausted && (c.usedPercent ?? 0) >= 90;
  return (
    <tr className="align-top" data-category={c.code}>
      <th scope="row" className="min-w-40 px-4 py-3 text-start font-medium text-slate-900">
        <span className="block">{name}</span>
        <span className="mt-1 flex flex-wrap gap-1 text-xs font-normal">
          {c.excluded && <span className="rounded bg-slate-200 px-1.5 py-0.5 text-slate-800">⊘ {t("notCovered")}</span>}
          {exhausted && <span className="rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-800">✕ {t("exhausted")}</span>}
          {nearly && <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900">! {t("nearlyExhausted")}</span>}
          {typeof c.copayPercent === "number" && c.copayPercent > 0 && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">{t("copay", { percent: c.copayPercent })}</span>}
          {c.authorizationRequired && <span className="rounded bg-sky-50 px-1.5 py-0.5 text-sky-900">{t("authRequired")}</span>}
        </span>
        <Qualifiers c={c} />
      </th>
      {c.excluded ? (
        <td colSpan={4} className="px-4 py-3 text-slate-600">
          {t("notCovered")}
        </td>
      ) : (
        <>
          <td className="whitespace-nowrap px-4 py-3 text-end tabular-nums" data-testid="allowed" data-label={t("allowed")}>
            {c.allowed ? money(c.allowed) : c.allowedText ? <AllowedText text={c.allowedText} /> : "—"}
          </td>
          <td className="whitespace-nowrap px-4 py-3 text-end tabular-nums" data-label={t("used")}>{money(c.used)}</td>
          <td className={`whitespace-nowrap px-4 py-3 text-end font-semibold tabular-nums ${exhausted ? "text-red-700" : "text-slate-900"}`} data-label={t("remaining")}>{money(c.remaining)}</td>
          <td className="min-w-28 px-4 py-3" data-label={t("usage")}>
            {c.allowed && c.used && typeof c.usedPercent === "number" ? (
              <div
                role="meter"
                aria-label={`${name}: ${t("usage")}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={c.usedPercent}
                aria-valuetext={t("usedOf", { used: money(c.used), allowed: money(c.allowed) })}
                className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200 [print-color-adjust:exact]"
              >
                <div className={`h-full rounded-full ${barTone(c)}`} style={{ width: `${c.usedPercent}%` }} />
              </div>
            ) : null}
            {typeof c.usedPercent === "number" && (
              <span className="mt-1 block text-xs text-slate-500 tabular-nums" aria-hidden>
                {new Intl.NumberFormat(locale, { style: "percent" }).format(c.usedPercent / 100)}
              </span>
            )}
          </td>
        </>
      )}
    </tr>
  );
}

const NETWORKS = ["in", "out"] as const;
const UNITS = ["individual", "family"] as const;
const TERMS = ["annual", "day", "lifetime"] as const;
const known = <T extends string>(list: readonly T[], code: string | undefined): code is T => list.includes(code as T);

/** "unlimited" in the UI language; any other text exactly as the payer gave it. */
function AllowedText({ text }: { text: string }) {
  const t = useTranslations("eligibility.result");
  return text.trim().toLowerCase() === "unlimited" ? <span className="font-medium">{t("unlimited")}</span> : <bdi>{text}</bdi>;
}

/**
 * Network (in/out), unit (individual/family) and term (per year, lifetime …) where the payer gave
 * them — out of network stands out, since its amounts are not the in-network ones — plus benefits
 * counted rather than priced (visits …) and what must accompany an authorization request.
 */
function Qualifiers({ c }: { c: BenefitCategoryView }) {
  const t = useTranslations("eligibility.result");
  const counts = c.benefits.filter((b) => b.allowed?.count !== undefined && b.type?.code !== "copay-percent");
  const typeName = (code: string | undefined, fallback: string | undefined) =>
    code === "visit" || code === "room" || code === "benefit" ? t(`benefitType.${code}`) : (fallback ?? code ?? "");
  if (!c.network && !c.unit && !c.term && counts.length === 0 && c.authorizationSupporting.length === 0) return null;
  return (
    <span className="mt-1 block space-y-1 text-xs font-normal" data-testid="benefit-qualifiers">
      <span className="flex flex-wrap gap-1" aria-label={t("qualifiers")}>
        {c.network && (
          <span
            className={c.network === "out" ? "rounded bg-amber-100 px-1.5 py-0.5 font-semibold text-amber-950" : "rounded bg-emerald-50 px-1.5 py-0.5 text-emerald-900"}
            data-testid="network"
            data-network={c.network}
          >
            {c.network === "out" && <span aria-hidden>! </span>}
            {known(NETWORKS, c.network) ? t(`network.${c.network}`) : c.network}
          </span>
        )}
        {c.unit && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700" data-testid="unit">{known(UNITS, c.unit) ? t(`unit.${c.unit}`) : c.unit}</span>}
        {c.term && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700" data-testid="term">{known(TERMS, c.term) ? t(`term.${c.term}`) : c.term}</span>}
      </span>
      {counts.map((b, i) => {
        const type = typeName(b.type?.code, b.type?.display ?? b.type?.text);
        return (
          <span key={i} className="block text-slate-700" data-testid="benefit-count">
            {b.used?.count !== undefined ? t("countUsed", { type, used: b.used.count, allowed: b.allowed!.count! }) : t("countAllowed", { type, allowed: b.allowed!.count! })}
          </span>
        );
      })}
      {c.authorizationSupporting.length > 0 && (
        <span className="block text-sky-900">{t("supporting", { items: c.authorizationSupporting.map((s) => s.text ?? s.display ?? s.code ?? "").join(", ") })}</span>
      )}
    </span>
  );
}

/** The exchange's site eligibility, in words (decision 075): out of network here means not in force here. */
function SiteEligibility({ site }: { site: NonNullable<InsuranceView["siteEligibility"]> }) {
  const t = useTranslations("siteEligibility");
  const words = site.code === "eligible" || site.code === "not-in-network" || site.code === "not-eligible" ? t(site.code) : t("other", { code: site.code });
  return (
    <p className={`px-5 pt-3 text-sm ${site.inForce ? "text-slate-700" : "font-medium text-red-800"}`} data-testid="site-eligibility" data-in-force={site.inForce}>
      {words}
    </p>
  );
}

function AnnualAmounts({ insurance }: { insurance: InsuranceView }) {
  const t = useTranslations("eligibility.result");
  const locale = useLocale();
  const money = (m: { minor: number; currency: string }) => formatMoney(m.minor, locale, m.currency);
  if (!insurance.deductible && !insurance.outOfPocket) return null;
  return (
    <ul className="space-y-0.5 px-5 pt-3 text-sm text-slate-800" data-testid="annual-amounts">
      {insurance.deductible && (
        <li data-testid="annual-deductible">{t("annualDeductible", { used: money(insurance.deductible.used), allowed: money(insurance.deductible.allowed), remaining: money(insurance.deductible.remaining) })}</li>
      )}
      {insurance.outOfPocket && (
        <li data-testid="annual-out-of-pocket">{t("annualOutOfPocket", { used: money(insurance.outOfPocket.used), allowed: money(insurance.outOfPocket.allowed), remaining: money(insurance.outOfPocket.remaining) })}</li>
      )}
    </ul>
  );
}

function InsuranceBenefits({ insurance, single }: { insurance: InsuranceView; single: boolean }) {
  const t = useTranslations("eligibility.result");
  const site = insurance.siteEligibility ? <SiteEligibility site={insurance.siteEligibility} /> : null;
  // The annual deductible and out-of-pocket maximum are the coverage's, said above the categories (decision 091).
  const annual = <AnnualAmounts insurance={insurance} />;
  // Items naming one service answer "auth-requirements" (listed on their own below), not a benefit category.
  const categories = insurance.categories.filter((c) => !c.annualOnly && !c.productOrService);
  if (categories.length === 0)
    return (
      <>
        {site}
        {annual}
        <p className="px-5 py-4 text-sm text-slate-600">{insurance.inforce ? t("noBenefits") : t("noBenefitsNotInForce")}</p>
      </>
    );
  // Rows are CategoryRow (a usage bar per category), so the frame, not DataTable's columns.
  return (
    <>
      {site}
      {annual}
      <TableFrame label={`${t("categories")}${!single && insurance.coverageId ? ` — ${insurance.coverageId}` : ""}`} testId="benefits-table" maxHeight="">
        <thead className={theadClasses}>
          <tr>
            <th scope="col" className={thClasses("start")}>{t("category")}</th>
            <th scope="col" className={thClasses("end")}>{t("allowed")}</th>
            <th scope="col" className={thClasses("end")}>{t("used")}</th>
            <th scope="col" className={thClasses("end")}>{t("remaining")}</th>
            <th scope="col" className={thClasses("start")}>{t("usage")}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {categories.map((c, i) => (
            <CategoryRow key={`${c.code}-${i}`} c={c} />
          ))}
        </tbody>
      </TableFrame>
    </>
  );
}

/** The payer's answer to "which services need a prior authorization" (guide 7.1, Table 36); the forms mark these lines. */
function AuthorizationRequirements({ services }: { services: ReturnType<typeof servicesNeedingAuthorization> }) {
  const t = useTranslations("eligibility.result");
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-5" data-testid="auth-requirements">
      <h2 className="mb-1 text-base font-semibold text-slate-900">{t("authRequirements.title")}</h2>
      {services.length === 0 ? (
        <p className="text-sm text-slate-600">{t("authRequirements.none")}</p>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">{t("authRequirements.intro")}</p>
          <ul className="space-y-1 text-sm">
            {services.map((s) => (
              <li key={`${s.system ?? ""}|${s.code}`} data-testid="auth-required-service">
                <bdi dir="ltr" className="font-mono font-semibold">
                  {s.code}
                </bdi>
                {s.display ? <span className="text-slate-700"> — {s.display}</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Everything below the banner: benefits per category and the facts of the check. */
export function EligibilityDetails({ check }: { check: EligibilityCheckView }) {
  const t = useTranslations("eligibility.result");
  const format = useFormatter();
  const locale = useLocale();
  const insurances = check.benefits?.insurances ?? [];
  const showBenefits = check.outcome !== "rejected" && check.purposes.includes("benefits");
  const facts: [string, React.ReactNode][] = [
    [t("patient"), `${check.patient.givenName} ${check.patient.familyName}`],
    [t("nationalId"), <span key="n" dir="ltr" className="font-mono">{check.patient.nationalId}</span>],
    [t("insurer"), locale === "ar" ? check.insurer.nameAr : check.insurer.nameEn],
    ...(check.coverage
      ? ([
          [t("memberId"), <span key="m" dir="ltr" className="font-mono">{check.coverage.memberId}</span>],
          [t("coverageRef"), <span key="c" dir="ltr" className="font-mono">{check.coverage.coverageRef}</span>],
        ] as [string, React.ReactNode][])
      : []),
    [t("servicedDate"), format.dateTime(new Date(`${check.servicedDate}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" })],
    [t("checkedAt"), format.dateTime(new Date(check.checkedAt), { dateStyle: "medium", timeStyle: "short" })],
    ...(check.checkedByName ? ([[t("checkedBy"), check.checkedByName]] as [string, React.ReactNode][]) : []),
    [t("requestId"), <span key="r" dir="ltr" className="font-mono text-xs break-all">{check.requestId}</span>],
  ];
  return (
    <div className="space-y-5">
      <DiscoveredCoverages check={check} />
      {showBenefits && (
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
          <h2 className="border-b border-slate-100 px-5 py-3 text-base font-semibold text-slate-900">{t("categories")}</h2>
          {insurances.length === 0 ? (
            <p className="px-5 py-4 text-sm text-slate-600">{check.outcome === "in_force" ? t("noBenefits") : t("noBenefitsNotInForce")}</p>
          ) : (
            insurances.map((insurance, i) => (
              <div key={`${insurance.coverageId ?? ""}-${i}`}>
                {insurances.length > 1 && (
                  <p className="border-b border-slate-100 bg-slate-50 px-5 py-2 text-sm font-medium" dir="ltr">
                    {insurance.coverageId}
                  </p>
                )}
                <InsuranceBenefits insurance={insurance} single={insurances.length === 1} />
              </div>
            ))
          )}
        </div>
      )}
      {check.outcome !== "rejected" && check.purposes.includes("auth-requirements") && check.benefits && <AuthorizationRequirements services={servicesNeedingAuthorization(check.benefits)} />}
      <div className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t("details")}</h2>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt className="text-slate-500">{label}</dt>
              <dd className="mt-0.5 font-medium text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
