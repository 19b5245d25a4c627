import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { formatAmount } from "@/components/coding/format";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { cursorParam, isSubmissionStatus, listSubmissions, parseCursor } from "@/lib/authorizations";
import { actorOf, requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { STATUS_ORDER } from "@/lib/i18n";
import { currencySymbol } from "@/lib/money";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("authorizations") };
}

export default async function AuthorizationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireArea("authorizations");
  const params = await searchParams;
  const status = isSubmissionStatus(params.status) ? params.status : undefined;
  const before = parseCursor(params.before);
  const [t, words, format, db, ctx] = [await getTranslations("authorizations"), await getTranslations("statusWords"), await getFormatter(), await getDb(), await requestContext()];
  const currency = currencySymbol(await getLocale());
  const { rows, next } = await listSubmissions(db, { use: "preauthorization", status, before, limit: 25 });
  await audit(db, {
    actor: actorOf(user),
    action: "authorization.list",
    outcome: "success",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { status: status ?? "any", rows: rows.length },
  });
  const href = (extra: Record<string, string | undefined>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries({ status, ...extra })) if (v) qs.set(k, v);
    const s = qs.toString();
    return s ? `/authorizations?${s}` : "/authorizations";
  };
  const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Link href="/authorizations/new" className={buttonClasses("primary")}>
            {t("new")}
          </Link>
        }
      />
      <Card className="mb-6 p-4">
        <form method="get" className="flex flex-wrap items-end gap-3" aria-label={t("filters")}>
          <label className="text-sm font-medium">
            {t("statusFilter")}
            <select name="status" defaultValue={status ?? ""} className={input}>
              <option value="">{t("anyStatus")}</option>
              {STATUS_ORDER.map((s) => (
                <option key={s} value={s}>
                  {words(`preauthorization.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonClasses("secondary")}>
            {t("apply")}
          </button>
        </form>
      </Card>
      <Card className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="authorizations-table">
          <caption className="sr-only">{t("title")}</caption>
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              {(["created", "patient", "status", "preAuthRef", "total"] as const).map((c) => (
                <th key={c} scope="col" className={`px-4 py-3 ${c === "total" ? "text-end" : "text-start"}`}>
                  {c === "total" ? t("columns.total", { currency: currency }) : t(`columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 && (
              <tr>
                <td colSpan={5} className="px-4 py-8 text-center text-slate-500">
                  {t("empty")}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.id} className="hover:bg-slate-50">
                <td className="whitespace-nowrap px-4 py-2 tabular-nums">
                  <Link href={`/authorizations/${row.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                    <time dateTime={row.createdAt.toISOString()}>{format.dateTime(row.createdAt, { dateStyle: "medium", timeStyle: "short" })}</time>
                  </Link>
                </td>
                <td className="px-4 py-2">{row.patient ? `${row.patient.givenName} ${row.patient.familyName}` : "—"}</td>
                <td className="px-4 py-2">
                  <StatusBadge status={row.status} outcome={row.outcome} />
                </td>
                <td className="px-4 py-2 font-mono text-xs" dir="ltr">
                  {row.preAuthRef ?? "—"}
                </td>
                <td className="px-4 py-2 text-end tabular-nums" dir="ltr">
                  {formatAmount(row.totalMinor)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <div className="mt-4 flex justify-between">
        {before ? (
          <Link href={href({})} className={buttonClasses("secondary")}>
            {t("newest")}
          </Link>
        ) : (
          <span />
        )}
        {next && (
          <Link href={href({ before: cursorParam(next) })} className={buttonClasses("secondary")}>
            {t("older")}
          </Link>
        )}
      </div>
    </>
  );
}
