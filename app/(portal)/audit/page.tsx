import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { auditActions, listAuditEvents, cursorParam, parseAuditFilters } from "@/lib/audit";
import type { AuditFilters } from "@/lib/audit";
import { requireArea } from "@/lib/auth";
import { getDb, AUDIT_OUTCOMES } from "@/lib/db";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("audit") };
}

function withParams(filters: AuditFilters, extra: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, before: undefined, ...extra })) if (v) params.set(k, v);
  const qs = params.toString();
  return qs ? `/audit?${qs}` : "/audit";
}

const OUTCOME_TONE = { success: "green", failure: "red", denied: "amber" } as const;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireArea("audit");
  const [t, format] = [await getTranslations("audit"), await getFormatter()];
  const { filters, query, invalid } = parseAuditFilters(await searchParams, env().CLINIC_TIME_ZONE);
  const db = await getDb();
  const [{ rows, next }, actions] = await Promise.all([listAuditEvents(db, query), auditActions(db)]);
  const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <Card className="mb-6 p-4">
        <form method="get" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" aria-label={t("filters")}>
          <label className="text-sm font-medium lg:col-span-2">
            {t("action")}
            <select name="action" defaultValue={filters.action ?? ""} className={input}>
              <option value="">{t("any")}</option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium">
            {t("actor")}
            <input name="actor" defaultValue={filters.actor ?? ""} className={input} dir="ltr" />
          </label>
          <label className="text-sm font-medium">
            {t("outcome")}
            <select name="outcome" defaultValue={filters.outcome ?? ""} className={input}>
              <option value="">{t("any")}</option>
              {AUDIT_OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {t(`outcomes.${o}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium">
            {t("from")}
            <input type="date" name="from" defaultValue={filters.from ?? ""} className={input} />
          </label>
          <label className="text-sm font-medium">
            {t("to")}
            <input type="date" name="to" defaultValue={filters.to ?? ""} className={input} />
          </label>
          <div className="flex gap-2 lg:col-span-6">
            <button type="submit" className={buttonClasses("primary")}>
              {t("apply")}
            </button>
            <Link href="/audit" className={buttonClasses("secondary")}>
              {t("reset")}
            </Link>
          </div>
        </form>
        {invalid.length > 0 && (
          <p role="alert" className="mt-3 text-sm text-amber-800">
            {t("invalidFilters", { fields: invalid.join(", ") })}
          </p>
        )}
      </Card>

      <Card className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t("title")}</caption>
          <thead className="bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              {(["time", "actor", "action", "target", "outcome", "ip", "requestId"] as const).map((c) => (
                <th key={c} scope="col" className="px-4 py-3 text-start">
                  {t(`columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 && (
              <tr>
                <td colSpan={7} className="px-4 py-8 text-center text-slate-500">
                  {t("empty")}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.id} className="align-top">
                <td className="whitespace-nowrap px-4 py-2 tabular-nums">
                  <time dateTime={row.at.toISOString()}>{format.dateTime(row.at, { dateStyle: "medium", timeStyle: "medium" })}</time>
                </td>
                <td className="px-4 py-2">
                  <span dir="ltr">{row.actorLabel ?? t(`actorKinds.${row.actorKind as "anonymous"}`)}</span>
                  {row.actorRoles.length > 0 && <span className="block text-xs text-slate-500">{row.actorRoles.join(", ")}</span>}
                </td>
                <td className="px-4 py-2 font-mono text-xs" dir="ltr">
                  {row.action}
                </td>
                <td className="px-4 py-2 font-mono text-xs" dir="ltr">
                  {row.targetType ? `${row.targetType}/${row.targetId}` : "—"}
                </td>
                <td className="px-4 py-2">
                  <Badge tone={OUTCOME_TONE[row.outcome]}>{t(`outcomes.${row.outcome}`)}</Badge>
                  {typeof row.details?.reason === "string" && <span className="block text-xs text-slate-500">{row.details.reason}</span>}
                </td>
                <td className="px-4 py-2 font-mono text-xs" dir="ltr">
                  {row.ip ?? "—"}
                </td>
                <td className="px-4 py-2 font-mono text-xs text-slate-500" dir="ltr">
                  {row.requestId?.slice(0, 8) ?? "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <div className="mt-4 flex justify-between">
        {filters.before ? (
          <Link href={withParams(filters, {})} className={buttonClasses("secondary")}>
            {t("newest")}
          </Link>
        ) : (
          <span />
        )}
        {next && (
          <Link href={withParams(filters, { before: cursorParam(next) })} className={buttonClasses("secondary")}>
            {t("older")}
          </Link>
        )}
      </div>
    </>
  );
}
