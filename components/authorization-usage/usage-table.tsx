import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import type { AuthorizationUsage } from "@/lib/authorization-usage";
import { findCode } from "@/lib/fhir/browser";
import { formatMoney } from "@/lib/money";

/** An approved authorization's usage: approved, used by linked claims and remaining per service; its validity period. */
export async function UsageTable({ usage }: { usage: AuthorizationUsage }) {
  const [t, format, locale] = [await getTranslations("authorizationUsage"), await getFormatter(), await getLocale()];
  const day = (d: string | null) => (d ? format.dateTime(new Date(`${d}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }) : "—");
  return (
    <Card className="p-5">
      <h2 className="text-base font-semibold text-slate-900" id="usage-title">
        {t("title")}
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        {t("description")} · <span data-testid="usage-validity">{usage.period ? t("validity", { start: day(usage.period.start), end: day(usage.period.end) }) : t("noPeriod")}</span>
      </p>
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-labelledby="usage-title" data-testid="usage-table">
        <thead className="bg-slate-50 text-xs font-semibold text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-start">{t("service")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("approved")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("used")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("remaining")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("amount")}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {usage.services.map((s) => (
            <tr key={s.code} data-testid="usage-row" data-code={s.code} data-remaining={s.remainingQuantity}>
              <th scope="row" className="px-3 py-2 text-start font-normal">
                <bdi dir="ltr" className="font-mono font-medium">{s.code}</bdi>
                {findCode("cpt", s.code) && <span className="ms-2 text-slate-700">{findCode("cpt", s.code)!.display[locale === "ar" ? "ar" : "en"]}</span>}
              </th>
              <td className="px-3 py-2 text-end tabular-nums">{s.approvedQuantity}</td>
              <td className="px-3 py-2 text-end tabular-nums">{s.usedQuantity}</td>
              <td className={`px-3 py-2 text-end font-semibold tabular-nums ${s.remainingQuantity === 0 ? "text-red-800" : "text-emerald-800"}`} data-testid="usage-remaining">
                {s.remainingQuantity}
              </td>
              <td className="px-3 py-2 text-end tabular-nums">{s.approvedMinor === null ? "—" : formatMoney(s.approvedMinor, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
