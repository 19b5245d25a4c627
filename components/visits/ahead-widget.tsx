import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { clinicToday } from "@/lib/time";
import { aheadStats } from "@/lib/visits";

/** Dashboard: share of visits checked ahead, and problems found ahead vs at the counter (last 30 days). */
export async function AheadWidget() {
  const t = await getTranslations("visits.dashboard");
  const locale = await getLocale();
  const stats = await aheadStats(await getDb(), clinicToday());
  const percent = new Intl.NumberFormat(locale === "ar" ? "ar-SA-u-nu-latn" : "en", { style: "percent", maximumFractionDigits: 0 }).format(stats.share);
  const most = Math.max(1, stats.problemsAhead, stats.problemsAtCounter);
  const bar = (label: string, value: number, color: string, testid: string) => (
    <div>
      <div className="flex justify-between text-sm text-slate-700">
        <span>{label}</span>
        <span className="font-semibold tabular-nums text-slate-900" data-testid={testid}>{value}</span>
      </div>
      <div className="mt-1 h-2 rounded-full bg-slate-100" aria-hidden>
        <div className={`h-full rounded-full ${color}`} style={{ width: `${(value / most) * 100}%` }} />
      </div>
    </div>
  );
  return (
    <Card className="flex flex-col p-4">
      <div className="mb-3 flex items-start justify-between gap-3" data-testid="dashboard-widget-visits-ahead">
        <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
        <Link href="/visits" className="shrink-0 text-sm font-medium text-sky-700 underline-offset-2 hover:underline">{t("link")}</Link>
      </div>
      <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="visits-ahead-share">{percent}</p>
      <p className="mt-1 text-sm text-slate-600">
        {t("share")} · {t("shareDetail", { ahead: stats.checkedAhead, visits: stats.visits, days: stats.days })}
      </p>
      <div className="mt-4 space-y-3">
        {bar(t("problemsAhead"), stats.problemsAhead, "bg-emerald-600", "visits-problems-ahead")}
        {bar(t("problemsAtCounter"), stats.problemsAtCounter, "bg-amber-500", "visits-problems-counter")}
      </div>
    </Card>
  );
}
