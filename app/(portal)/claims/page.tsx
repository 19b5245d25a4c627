import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { BatchProgressBar } from "@/components/claims/batch-progress";
import { ClaimsList } from "@/components/claims/claims-list";
import { LiveBadge } from "@/components/live/live-badge";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { batchProgress, CLAIM_SORTS, claimInsurers, claimListView, parseClaimListQuery } from "@/lib/claims";
import { STATUS_ORDER } from "@/lib/i18n";
import { insurerNames } from "@/lib/patients";
import { ReasonFilterNotice } from "@/components/dashboard/reason-filter";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("nav"))("claims") };
}

export default staffPage("claims", async function ClaimsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const query = parseClaimListQuery(await searchParams);
  const { status, sort, dir, ...filters } = query;
  const [t, words, db] = [await getTranslations("claims"), await getTranslations("statusWords"), staff.db];
  const [view, insurers, insurerName] = await Promise.all([claimListView(db, query), claimInsurers(db), insurerNames(db, await getLocale())]);
  await staff.audit({ action: "claim.list", outcome: "success", details: { status: status ?? "any", rows: view.rows.length, patientFilter: Boolean(filters.patient), search: Boolean(filters.q) } });
  const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <LiveBadge on={t("live.on")} off={t("live.off")} />
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
      {filters.batch && <BatchProgressBar batchId={filters.batch} initial={await batchProgress(db, filters.batch)} />}
      <ClaimsList query={query} initial={view}>
      <Card className="mb-4 p-4">
        {filters.reason && <ReasonFilterNotice reason={filters.reason} />}
        <form method="get" className="grid gap-3 sm:grid-cols-3 lg:grid-cols-8 lg:items-end" aria-label={t("filters.label")}>
          {filters.reason && <input type="hidden" name="reason" value={filters.reason} />}
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
          {filters.patient && <input type="hidden" name="patient" value={filters.patient} />}
          <label className="text-sm font-medium sm:col-span-2">
            {t("filters.search")}
            <input type="search" name="q" defaultValue={filters.q ?? ""} placeholder={t("filters.searchHint")} className={input} data-testid="claim-search" />
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
          <div className="flex gap-2 sm:col-span-3 lg:col-span-8">
            <button type="submit" className={buttonClasses("secondary")}>
              {t("filters.apply")}
            </button>
            <Link href="/claims" className={buttonClasses("ghost")}>
              {t("filters.reset")}
            </Link>
          </div>
        </form>
      </Card>
      </ClaimsList>
    </>
  );
});
