import { getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { DashboardRange } from "@/lib/dashboard";

/** The date range, trend bucket and insurer filter: a plain GET form (works without JavaScript). */
export async function RangeForm({ range, insurers }: { range: DashboardRange; insurers: { id: string; name: string }[] }) {
  const t = await getTranslations("dashboard.range");
  const input = "mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";
  return (
    <Card className="mb-6 p-4">
      <form method="get" aria-label={t("legend")} className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          {t("from")}
          <input type="date" name="from" defaultValue={range.from} className={input} required />
        </label>
        <label className="text-sm font-medium">
          {t("to")}
          <input type="date" name="to" defaultValue={range.to} className={input} required />
        </label>
        <label className="text-sm font-medium">
          {t("bucket")}
          <select name="bucket" defaultValue={range.bucket} className={input}>
            <option value="day">{t("day")}</option>
            <option value="week">{t("week")}</option>
          </select>
        </label>
        <label className="text-sm font-medium">
          {t("insurer")}
          <select name="insurer" defaultValue={range.insurerId ?? ""} className={input}>
            <option value="">{t("allInsurers")}</option>
            {insurers.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClasses("primary")}>
          {t("apply")}
        </button>
      </form>
      <p className="mt-2 text-xs text-slate-500">{t("timeZone", { timeZone: range.timeZone })}</p>
    </Card>
  );
}
