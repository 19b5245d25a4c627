import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { BatchProgressBar } from "@/components/claims/batch-progress";
import { ClaimsTable, type ClaimTableRow } from "@/components/claims/claims-table";
import { ClaimsLiveRefresh } from "@/components/claims/list-live";
import { formatAmount } from "@/components/coding/format";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { actorOf, requireArea } from "@/lib/auth";
import { batchProgress, CLAIM_SORTS, claimInsurers, countClaimsByStatus, isStatus, listClaims } from "@/lib/claims";
import type { ClaimSort } from "@/lib/claims";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { requestContext } from "@/lib/http";
import { STATUS_ORDER, statusLabel } from "@/lib/i18n";
import { insurerNames } from "@/lib/patients";
import { deadlinesFor } from "@/lib/deadlines";
import { claimPayments } from "@/lib/payments";
import { clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("claims") };
}

const str = (v: string | string[] | undefined) => (typeof v === "string" && v.length <= 100 ? v : undefined);

export default async function ClaimsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireArea("claims");
  const params = await searchParams;
  const status = isStatus(params.status) ? params.status : undefined;
  const sort: ClaimSort = (CLAIM_SORTS as readonly string[]).includes(String(params.sort)) ? (params.sort as ClaimSort) : "created";
  const dir = params.dir === "asc" ? "asc" : "desc";
  const batch = typeof params.batch === "string" && /^[0-9a-f-]{36}$/i.test(params.batch) ? params.batch : undefined;
  // After "submit selected" the list shows that batch (whatever status filter was on before).
  const filters = { status, patient: str(params.patient), insurer: str(params.insurer), from: str(params.from), to: str(params.to), batch };
  const cursor = str(params.cursor);
  const timeZone = env().CLINIC_TIME_ZONE;
  const [t, words, format, db, ctx] = [await getTranslations("claims"), await getTranslations("statusWords"), await getFormatter(), await getDb(), await requestContext()];
  const [{ rows, next }, counts, insurers, insurerName] = await Promise.all([
    listClaims(db, { ...filters, sort, dir, cursor, limit: 50, timeZone }),
    countClaimsByStatus(db, filters, timeZone),
    claimInsurers(db),
    insurerNames(db, await getLocale()),
  ]);
  await audit(db, {
    actor: actorOf(user),
    action: "claim.list",
    outcome: "success",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { status: status ?? "any", rows: rows.length, patientFilter: Boolean(filters.patient) },
  });
  const base = { ...filters, sort, dir };
  const href = (extra: Record<string, string | undefined>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...base, ...extra })) if (v) qs.set(k, v);
    return `/claims?${qs.toString()}`;
  };
  // Issue 18: "paid on … in remittance …" and the filing-deadline countdown of each listed claim.
  const [payments, deadlines, tp] = await Promise.all([claimPayments(db, rows.map((r) => r.id)), deadlinesFor(db, rows.map((r) => r.id), clinicToday(timeZone), timeZone), getTranslations("payments.claim")]);
  const paymentOf = (id: string) => {
    const p = payments.get(id);
    return p ? { text: tp("paidOn", { date: format.dateTime(new Date(`${p.paymentDate}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }), remittance: p.remittance }), short: p.shortPaid } : undefined;
  };
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";
  const tableRows: ClaimTableRow[] = rows.map((r) => {
    const label = statusLabel("claim", r.status, r.outcome);
    return {
    id: r.id,
    status: r.status,
    statusLabel: words(label.key),
    statusWord: label.word,
    statusTone: label.tone,
    created: format.dateTime(r.createdAt, { dateStyle: "medium", timeStyle: "short" }),
    createdIso: r.createdAt.toISOString(),
    patient: r.patient ? `${r.patient.givenName} ${r.patient.familyName}` : "—",
    insurer: r.insurerId ? insurerName(r.insurerId) : "—",
    total: formatAmount(r.totalMinor),
    identifier: r.identifierValue ?? "—",
    replaces: Boolean(r.replacesId),
    payment: paymentOf(r.id),
    deadline: deadlines.get(r.id),
    };
  });

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <ClaimsLiveRefresh />
            <Link href="/claims/work-queue" className={buttonClasses("secondary")}>
              {t("nav.workQueue")}
            </Link>
            <Link href="/claims/reconcile" className={buttonClasses("secondary")}>
              {t("nav.reconcile")}
            </Link>
            <Link href="/claims/new" className={buttonClasses("primary")}>
              {t("new")}
            </Link>
          </div>
        }
      />
      {batch && <BatchProgressBar batchId={batch} initial={await batchProgress(db, batch)} />}
      <nav aria-label={t("chips.label")} className="mb-4 flex flex-wrap gap-2" data-testid="status-chips">
        <Link href={href({ status: undefined, cursor: undefined })} aria-current={!status ? "page" : undefined} className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset ${!status ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-700 ring-slate-300"}`}>
          {t("chips.all")} <span className="tabular-nums">{total}</span>
        </Link>
        {STATUS_ORDER.filter((s) => counts[s]).map((s) => (
          <Link
            key={s}
            href={href({ status: s, cursor: undefined })}
            aria-current={status === s ? "page" : undefined}
            data-testid={`chip-${s}`}
            className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset ${status === s ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-700 ring-slate-300"}`}
          >
            {words(`claim.${s}`)} <span className="tabular-nums">{counts[s]}</span>
          </Link>
        ))}
      </nav>
      <Card className="mb-4 p-4">
        <form method="get" className="grid gap-3 sm:grid-cols-3 lg:grid-cols-7 lg:items-end" aria-label={t("filters.label")}>
          <label className="text-sm font-medium">
            {t("filters.status")}
            <select name="status" defaultValue={status ?? ""} className={input}>
              <option value="">{t("filters.anyStatus")}</option>
              {STATUS_ORDER.map((s) => (
                <option key={s} value={s}>
                  {words(`claim.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium">
            {t("filters.patient")}
            <input name="patient" defaultValue={filters.patient ?? ""} placeholder={t("filters.patientHint")} className={input} />
          </label>
          <label className="text-sm font-medium">
            {t("filters.insurer")}
            <select name="insurer" defaultValue={filters.insurer ?? ""} className={input}>
              <option value="">{t("filters.anyInsurer")}</option>
              {insurers.map((i) => (
                <option key={i} value={i}>
                  {insurerName(i)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium">
            {t("filters.from")}
            <input type="date" name="from" defaultValue={filters.from ?? ""} className={input} />
          </label>
          <label className="text-sm font-medium">
            {t("filters.to")}
            <input type="date" name="to" defaultValue={filters.to ?? ""} className={input} />
          </label>
          <label className="text-sm font-medium">
            {t("filters.sort")}
            <select name="sort" defaultValue={sort} className={input}>
              {CLAIM_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(`sort.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium">
            {t("filters.dir")}
            <select name="dir" defaultValue={dir} className={input}>
              <option value="desc">{t("sort.desc")}</option>
              <option value="asc">{t("sort.asc")}</option>
            </select>
          </label>
          <div className="flex gap-2 sm:col-span-3 lg:col-span-7">
            <button type="submit" className={buttonClasses("secondary")}>
              {t("filters.apply")}
            </button>
            <Link href="/claims" className={buttonClasses("ghost")}>
              {t("filters.reset")}
            </Link>
          </div>
        </form>
      </Card>
      <ClaimsTable rows={tableRows} />
      <div className="mt-4 flex justify-between">
        {cursor ? (
          <Link href={href({ cursor: undefined })} className={buttonClasses("secondary")}>
            {t("first")}
          </Link>
        ) : (
          <span />
        )}
        {next && (
          <Link href={href({ cursor: next })} className={buttonClasses("secondary")} data-testid="next-page">
            {t("next")}
          </Link>
        )}
      </div>
    </>
  );
}
