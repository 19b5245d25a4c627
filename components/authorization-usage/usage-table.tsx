import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import type { AuthorizationUsage } from "@/lib/authorization-usage";
import { CODE_SYSTEMS } from "@/lib/fhir/browser";
import { getDb } from "@/lib/db";
import { lookupCodes } from "@/lib/terminology";
import { formatMoney } from "@/lib/money";

/** An approved authorization's usage: approved, used by linked claims and remaining per service; its validity period. */
export async function UsageTable({ usage }: { usage: AuthorizationUsage }) {
  const [t, format, locale] = [await getTranslations("authorizationUsage"), await getFormatter(), await getLocale()];
  const day = (d: string | null) => (d ? format.dateTime(new Date(`${d}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }) : "—");
  // The services in words, from the catalogue of the list the authorization named each in (CPT when none).
  const systemOf = (s: AuthorizationUsage["services"][number]) => s.system || CODE_SYSTEMS.cpt;
  const bySystem = new Map<string, string[]>();
  for (const s of usage.services) bySystem.set(systemOf(s), [...(bySystem.get(systemOf(s)) ?? []), s.code]);
  const db = bySystem.size > 0 ? await getDb() : undefined;
  const words = new Map(
    (await Promise.all([...bySystem].map(([system, codes]) => lookupCodes(db!, system, codes)))).flat().map((hit) => [`${hit.system}|${hit.code}`, hit[locale === "ar" ? "ar" : "en"] || hit.en]),
  );
  const num = { align: "end", className: "px-3 py-2 tabular-nums" } as const;
  const columns: Column<AuthorizationUsage["services"][number]>[] = [
    {
      id: "service",
      header: t("service"),
      rowHeader: true,
      className: "px-3 py-2 font-normal",
      cell: (s) => (
        <>
          <bdi dir="ltr" className="font-mono font-medium">{s.code}</bdi>
          {words.get(`${systemOf(s)}|${s.code}`) && <span className="ms-2 text-slate-700">{words.get(`${systemOf(s)}|${s.code}`)}</span>}
        </>
      ),
    },
    { id: "approved", header: t("approved"), ...num, cell: (s) => s.approvedQuantity },
    { id: "used", header: t("used"), ...num, cell: (s) => s.usedQuantity },
    {
      id: "remaining",
      header: t("remaining"),
      ...num,
      testId: "usage-remaining",
      cellProps: (s) => ({ className: `font-semibold ${s.remainingQuantity === 0 ? "text-red-800" : "text-emerald-800"}` }),
      cell: (s) => s.remainingQuantity,
    },
    { id: "amount", header: t("amount"), ...num, cell: (s) => (s.approvedMinor === null ? "—" : formatMoney(s.approvedMinor, locale)) },
  ];
  return (
    <Card className="p-5">
      <h2 className="text-base font-semibold text-slate-900" id="usage-title">
        {t("title")}
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        {t("description")} · <span data-testid="usage-validity">{usage.period ? t("validity", { start: day(usage.period.start), end: day(usage.period.end) }) : t("noPeriod")}</span>
      </p>
      <DataTable
        label={t("title")}
        testId="usage-table"
        columns={columns}
        rows={usage.services}
        rowKey={(s) => s.code}
        rowProps={(s) => ({ "data-testid": "usage-row", "data-code": s.code, "data-remaining": String(s.remainingQuantity) })}
        maxHeight=""
        dense
      />
    </Card>
  );
}
