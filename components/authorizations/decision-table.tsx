import { getLocale, getTranslations } from "next-intl/server";
import { formatAmount } from "@/components/coding/format";
import { Badge } from "@/components/ui/card";
import type { DecisionView } from "@/lib/authorizations/decision";
import { ADJUDICATION_REASONS, findCode, type AdjudicationReasonCode } from "@/lib/fhir";

/** The decision per item: submitted, eligible, patient share and benefit, with the reasons. */
export async function DecisionTable({ decision }: { decision: DecisionView }) {
  const t = await getTranslations("authorizations.decision");
  const locale = (await getLocale()) === "ar" ? "ar" : "en";
  const reason = (code: string) => (code in ADJUDICATION_REASONS ? ADJUDICATION_REASONS[code as AdjudicationReasonCode][locale] : code);
  const money = "px-3 py-2 text-end tabular-nums";
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="decision-table">
        <caption className="sr-only">{t("caption")}</caption>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-start">#</th>
            <th scope="col" className="px-3 py-2 text-start">{t("service")}</th>
            <th scope="col" className="px-3 py-2 text-start">{t("result")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("submitted")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("eligible")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("copay")}</th>
            <th scope="col" className="px-3 py-2 text-end">{t("benefit")}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {decision.items.map((item) => (
            <tr key={item.sequence} className="align-top">
              <td className="px-3 py-2 text-slate-500">{item.sequence}</td>
              <td className="px-3 py-2">
                <span dir="ltr" className="font-mono font-semibold">
                  {item.code ?? "—"}
                </span>
                <span className="ms-2 text-slate-700">{item.code ? findCode("cpt", item.code)?.display[locale] : ""}</span>
                {item.quantity !== undefined && <span className="ms-2 text-xs text-slate-500">× {item.quantity}</span>}
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                <Badge tone={item.approved ? (item.reasons.length ? "amber" : "green") : "red"}>
                  {item.approved ? (item.reasons.length ? t("approvedPartly") : t("approved")) : t("denied")}
                </Badge>
                {item.reasons.map((r) => (
                  <span key={r} className="mt-1 block text-xs text-slate-600">
                    {reason(r)}
                  </span>
                ))}
              </td>
              <td className={money} dir="ltr">{formatAmount(item.submittedMinor)}</td>
              <td className={money} dir="ltr">{formatAmount(item.eligibleMinor)}</td>
              <td className={money} dir="ltr">{formatAmount(item.copayMinor)}</td>
              <td className={`${money} font-semibold`} dir="ltr">{formatAmount(item.benefitMinor)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <td colSpan={3} className="px-3 py-2">
              {t("total")} <span className="text-xs font-normal text-slate-500">({t("currency")})</span>
            </td>
            <td className={money} dir="ltr">{formatAmount(decision.totals.submittedMinor)}</td>
            <td className={money} dir="ltr">{formatAmount(decision.totals.eligibleMinor)}</td>
            <td className={money} />
            <td className={money} dir="ltr" data-testid="decision-benefit-total">{formatAmount(decision.totals.benefitMinor)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
