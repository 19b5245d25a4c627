import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { PlatformErrors } from "@/components/claims/platform-errors";
import { WorkQueueList, type QueueRow } from "@/components/claims/work-queue-list";
import { LiveBadge } from "@/components/live/live-badge";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { queueStaff, rankedWorkQueue, type AssigneeFilter } from "@/lib/claims";
import type { SubmissionStatus } from "@/lib/db";
import { reasonWithCode } from "@/lib/denials";
import { env } from "@/lib/env";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { platformReasonWords, platformWordsLine, statusLabel } from "@/lib/i18n";
import { submissionLabels } from "@/lib/submissions";
import { formatMoney } from "@/lib/money";
import { clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("claims"))("workQueue.title") };
}

const FILTERS: AssigneeFilter[] = ["all", "mine", "unassigned"];

/**
 * The claims work queue (docs/decisions/080): refused, failed and appealable claims ranked by money
 * at stake per day left, with assignment, notes, bulk assignment and a CSV of what is shown.
 */
export default staffPage("claims", async function WorkQueuePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }, staff: StaffPageContext) {
  const { user } = staff;
  const params = await searchParams;
  const filter = (FILTERS as string[]).includes(String(params.assignee)) ? (params.assignee as AssigneeFilter) : "all";
  const [t, words, format, locale, db] = [await getTranslations("claims"), await getTranslations("statusWords"), await getFormatter(), await getLocale(), staff.db];
  const live = { kinds: PAGE_LIVE_KINDS.workQueue, submissionKind: "claim" } as const;
  const stamp = await liveStamp(db, user.roles, { ...live, kinds: [...live.kinds] });
  const timeZone = env().CLINIC_TIME_ZONE;
  const [items, billers] = await Promise.all([rankedWorkQueue(db, { today: clinicToday(timeZone), timeZone, userId: user.id, assignee: filter }), queueStaff(db)]);
  const labels = await submissionLabels(db, items.map((r) => r.id), locale);
  const viewKey = await staff.audit({ action: "claim.work_queue", outcome: "success", details: { ids: items.map((r) => r.id), assignee: filter } });
  const rows: QueueRow[] = items.map((r) => {
    return {
      id: r.id,
      status: r.status,
      statusLabel: words(statusLabel("claim", r.status as SubmissionStatus).key as never),
      action: r.action,
      title: labels.get(r.id)?.text ?? t("workQueue.claim"),
      atStake: formatMoney(r.atStakeMinor, locale, r.currency ?? undefined),
      reason: r.reason ? (r.action === "appeal" ? reasonWithCode(r.reason, locale) : platformWordsLine(platformReasonWords(r.reason, locale), locale)) : null,
      deadline: r.deadline,
      assignee: r.assignee,
      notes: r.notes.map((n) => ({ body: n.body, by: n.authorId, at: n.createdAt.toISOString(), atText: format.dateTime(n.createdAt, { dateStyle: "medium", timeStyle: "short" }) })),
      ...(r.action === "appeal" ? {} : { errors: <PlatformErrors errors={r.errors} />, hint: t(r.status === "rejected" ? "workQueue.fixHint" : "workQueue.retryHint") }),
    };
  });
  const exportHref = `/claims/work-queue/export${filter === "all" ? "" : `?assignee=${filter}`}`;
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/claims" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.back")}
        </Link>
      </nav>
      <PageHeader
        title={t("workQueue.title")}
        description={t("workQueue.description")}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <a href={exportHref} className={buttonClasses("secondary")} data-testid="work-export" download>
              {t("workQueue.export")}
            </a>
            <LiveBadge on={t("live.on")} off={t("live.off")} />
          </div>
        }
      />
      <LiveRefresh query={{ ...live, kinds: [...live.kinds] }} stamp={stamp} viewKey={viewKey} announceOn={live.kinds} announcement={t("live.updated")} />
      <p className="mb-3 text-xs text-slate-600">{t("workQueue.rankHint")}</p>
      <nav aria-label={t("workQueue.filter.label")} className="mb-3 flex flex-wrap gap-2 text-sm">
        {FILTERS.map((f) => (
          <Link
            key={f}
            href={f === "all" ? "/claims/work-queue" : `/claims/work-queue?assignee=${f}`}
            aria-current={f === filter ? "page" : undefined}
            className={`rounded-full px-3 py-1 ring-1 ring-inset ${f === filter ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-700 ring-slate-300"}`}
            data-testid={`work-filter-${f}`}
          >
            {t(`workQueue.filter.${f}`)}
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? <Card className="p-8 text-center text-sm text-slate-500">{t("workQueue.empty")}</Card> : <WorkQueueList rows={rows} staff={billers} />}
    </>
  );
});
