import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { InformationRequestList } from "@/components/information-requests/request-list";
import { InformationRequestsLive } from "@/components/information-requests/live-refresh";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext, AREAS, canAccess } from "@/lib/auth";
import type { SubmissionKind } from "@/lib/db";
import { QUEUE_FILTERS, countInformationRequests, listInformationRequests, type QueueFilter } from "@/lib/information-requests";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("informationRequests"))("title") };
}

/**
 * The "Information requested" work queue (docs/decisions/045): payers' CommunicationRequests about the
 * claims and authorizations the user may open (billing: both; front desk: authorizations), open
 * ones first and soonest due first, overdue ones highlighted; answered in place; live.
 */
export default staffPage("informationRequests", async function InformationRequestsPage({ searchParams }: { searchParams: Promise<{ show?: string }> }, staff: StaffPageContext) {
  const { user } = staff;
  const { show } = await searchParams;
  const filter: QueueFilter = (QUEUE_FILTERS as readonly string[]).includes(show ?? "") ? (show as QueueFilter) : "open";
  const kinds: SubmissionKind[] = [...(canAccess(user.roles, "authorizations") ? (["preauthorization"] as const) : []), ...(canAccess(user.roles, "claims") ? (["claim"] as const) : [])];
  const [t, db] = [await getTranslations("informationRequests"), staff.db];
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.informationRequests] });
  const [rows, counts] = await Promise.all([listInformationRequests(db, { filter, kinds }), countInformationRequests(db, kinds)]);
  const viewKey = await staff.audit({ action: "information_request.queue", outcome: "success", details: { filter, ids: rows.map((r) => r.id) } });
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={<InformationRequestsLive stamp={stamp} viewKey={viewKey} />} />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <nav aria-label={t("filterLabel")} className="flex flex-wrap gap-2 text-sm">
          {QUEUE_FILTERS.map((f) => (
            <Link
              key={f}
              href={f === "open" ? AREAS.informationRequests.href : `${AREAS.informationRequests.href}?show=${f}`}
              aria-current={f === filter ? "page" : undefined}
              className={`rounded-full border px-3 py-1 ${f === filter ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50"}`}
              data-testid={`filter-${f}`}
            >
              {t(`filters.${f}`)}
            </Link>
          ))}
        </nav>
        <p className="text-sm text-slate-700" data-testid="request-counts" data-open={counts.open} data-overdue={counts.overdue}>
          {t("counts", counts)}
        </p>
      </div>
      <InformationRequestList rows={rows} canAnswer={() => true} collapsed />
    </>
  );
});
