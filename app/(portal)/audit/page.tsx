import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";

const code = { className: "px-4 py-2 font-mono text-xs", dir: "ltr" } as const;
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

      <Card>
        <DataTable
          label={t("title")}
          empty={t("empty")}
          rows={rows}
          rowKey={(row) => String(row.id)}
          rowProps={() => ({ className: "align-top" })}
          columns={[
            {
              id: "time",
              header: t("columns.time"),
              className: "whitespace-nowrap px-4 py-2 tabular-nums",
              cell: (row) => <time dateTime={row.at.toISOString()}>{format.dateTime(row.at, { dateStyle: "medium", timeStyle: "medium" })}</time>,
            },
            {
              id: "actor",
              header: t("columns.actor"),
              cell: (row) => (
                <>
                  <span dir="ltr">{row.actorLabel ?? t(`actorKinds.${row.actorKind as "anonymous"}`)}</span>
                  {row.actorRoles.length > 0 && <span className="block text-xs text-slate-500">{row.actorRoles.join(", ")}</span>}
                </>
              ),
            },
            { id: "action", header: t("columns.action"), ...code, cell: (row) => row.action },
            { id: "target", header: t("columns.target"), ...code, cell: (row) => (row.targetType ? `${row.targetType}/${row.targetId}` : "—") },
            {
              id: "outcome",
              header: t("columns.outcome"),
              cell: (row) => (
                <>
                  <Badge tone={OUTCOME_TONE[row.outcome]}>{t(`outcomes.${row.outcome}`)}</Badge>
                  {typeof row.details?.reason === "string" && <span className="block text-xs text-slate-500">{row.details.reason}</span>}
                </>
              ),
            },
            { id: "ip", header: t("columns.ip"), ...code, cell: (row) => row.ip ?? "—" },
            { id: "requestId", header: t("columns.requestId"), ...code, className: `${code.className} text-slate-500`, cell: (row) => row.requestId?.slice(0, 8) ?? "—" },
          ]}
        />
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
