import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { LiveBadge } from "@/components/live/live-badge";
import { LiveRefresh } from "@/components/live/live-refresh";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { PayerBadge } from "@/components/authorizations/payer-badge";
import { formatAmount } from "@/components/coding/format";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { cursorParam, isSubmissionStatus, listSubmissions, parseCursor, submissionLabels } from "@/lib/submissions";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { STATUS_ORDER } from "@/lib/i18n";
import { currencySymbol } from "@/lib/money";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("authorizations") };
}

export default staffPage("authorizations", async function AuthorizationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const params = await searchParams;
  const status = isSubmissionStatus(params.status) ? params.status : undefined;
  const before = parseCursor(params.before);
  const search = typeof params.q === "string" ? params.q.trim().slice(0, 100) || undefined : undefined;
  const [t, words, format, db] = [await getTranslations("authorizations"), await getTranslations("statusWords"), await getFormatter(), staff.db];
  const locale = await getLocale();
  const currency = currencySymbol(locale);
  // Open lists update by themselves: a payer's advanced authorization arrives unasked (docs/decisions/101).
  const live = { kinds: PAGE_LIVE_KINDS.submission, submissionKind: "preauthorization" } as const;
  const stamp = await liveStamp(db, staff.user.roles, { ...live, kinds: [...live.kinds] });
  const { rows, next } = await listSubmissions(db, { use: "preauthorization", status, before, limit: 25, ...(search ? { search } : {}) });
  const labels = await submissionLabels(db, rows.map((r) => r.id), locale);
  const viewKey = await staff.audit({ action: "authorization.list", outcome: "success", details: { status: status ?? "any", rows: rows.length, search: Boolean(search) } });
  const href = (extra: Record<string, string | undefined>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries({ status, q: search, ...extra })) if (v) qs.set(k, v);
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
          <div className="flex flex-wrap items-center gap-2">
            <LiveBadge on={t("live.on")} off={t("live.off")} />
            <Link href="/authorizations/new" className={buttonClasses("primary")}>
              {t("new")}
            </Link>
          </div>
        }
      />
      <LiveRefresh query={{ ...live, kinds: [...live.kinds] }} stamp={stamp} viewKey={viewKey} announceOn={["submission.status"]} announcement={t("live.listUpdated")} />
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
          <label className="min-w-64 flex-1 text-sm font-medium">
            {t("search")}
            <input type="search" name="q" defaultValue={search ?? ""} placeholder={t("searchHint")} className={input} data-testid="authorization-search" />
          </label>
          <button type="submit" className={buttonClasses("secondary")}>
            {t("apply")}
          </button>
          {(search || status) && (
            <Link href="/authorizations" className={buttonClasses("ghost")}>
              {t("reset")}
            </Link>
          )}
        </form>
      </Card>
      <Card>
        <DataTable
          label={t("title")}
          testId="authorizations-table"
          empty={search ? t("noMatch", { q: search }) : t("empty")}
          rows={rows}
          rowKey={(row) => row.id}
          columns={[
            {
              id: "authorization",
              header: t("columns.authorization"),
              className: "px-4 py-2",
              cell: (row) => (
                <>
                  <Link href={`/authorizations/${row.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline" data-testid="authorization-number">
                    <bdi dir="ltr" className="whitespace-nowrap">{labels.get(row.id)?.number ?? "—"}</bdi>
                  </Link>
                  {labels.get(row.id) && <span className="block text-sm text-slate-700">{[labels.get(row.id)!.service, labels.get(row.id)!.day].filter(Boolean).join(" · ")}</span>}
                  <time dateTime={row.createdAt.toISOString()} className="block text-xs text-slate-500 tabular-nums">
                    {format.dateTime(row.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                </>
              ),
            },
            { id: "patient", header: t("columns.patient"), cell: (row) => (row.patient ? `${row.patient.givenName} ${row.patient.familyName}` : "—") },
            { id: "status", header: t("columns.status"), cell: (row) => (
                <>
                  <StatusBadge status={row.status} outcome={row.outcome} />
                  {row.fromPayer && <PayerBadge />}
                </>
              ),
            },
            { id: "preAuthRef", header: t("columns.preAuthRef"), className: "px-4 py-2 font-mono text-xs", dir: "ltr", cell: (row) => (
                <>
                  {row.preAuthRef ?? "—"}
                  {row.validUntil && (
                    <span className="block font-sans text-slate-600" data-testid="valid-until">
                      {t("payer.validUntil", { date: format.dateTime(new Date(row.validUntil.length === 10 ? `${row.validUntil}T00:00:00Z` : row.validUntil), { dateStyle: "medium", timeZone: "UTC" }) })}
                    </span>
                  )}
                </>
              ),
            },
            { id: "total", header: t("columns.total", { currency: currency }), align: "end", className: "px-4 py-2 tabular-nums", dir: "ltr", cell: (row) => formatAmount(row.totalMinor) },
          ]}
        />
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
});
