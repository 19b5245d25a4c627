import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { ClaimActions } from "@/components/claims/claim-actions";
import { LiveBadge } from "@/components/live/live-badge";
import { LiveRefresh } from "@/components/live/live-refresh";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/exchange";
import { PlatformErrors } from "@/components/claims/platform-errors";
import { Card, PageHeader } from "@/components/ui/card";
import { audit } from "@/lib/audit";
import { actorOf, requireArea } from "@/lib/auth";
import { workQueue } from "@/lib/claims";
import { getDb, patients } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { formatMoney } from "@/lib/money";
import { inArray } from "drizzle-orm";
import { DeadlineBadge } from "@/components/deadlines/deadline-badge";
import { deadlinesFor } from "@/lib/deadlines";
import { env } from "@/lib/env";
import { clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("claims"))("workQueue.title") };
}

/** Rejected and failed claims not yet replaced: the platform's reasons, fix and resubmit, retry. */
export default async function WorkQueuePage() {
  const user = await requireArea("claims");
  const [t, format, locale, db, ctx] = [await getTranslations("claims"), await getFormatter(), await getLocale(), await getDb(), await requestContext()];
  // Read before the queue: a claim changing after this moment makes the browser render the page again.
  const live = { kinds: PAGE_LIVE_KINDS.workQueue, submissionKind: "claim" } as const;
  const stamp = await liveStamp(db, user.roles, { ...live, kinds: [...live.kinds] });
  const rows = await workQueue(db);
  const timeZone = env().CLINIC_TIME_ZONE;
  const deadlines = await deadlinesFor(db, rows.map((r) => r.id), clinicToday(timeZone), timeZone);
  const nids = [...new Set(rows.map((r) => r.patientId))];
  const people = nids.length ? await db.select().from(patients).where(inArray(patients.nationalId, nids)) : [];
  const byNid = new Map(people.map((p) => [p.nationalId, p]));
  await audit(db, {
    actor: actorOf(user),
    action: "claim.work_queue",
    outcome: "success",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { ids: rows.map((r) => r.id) },
  });
  return (
    <>
      <nav className="mb-3 text-sm">
        <Link href="/claims" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("detail.back")}
        </Link>
      </nav>
      <PageHeader title={t("workQueue.title")} description={t("workQueue.description")} actions={<LiveBadge on={t("live.on")} off={t("live.off")} />} />
      <LiveRefresh query={{ ...live, kinds: [...live.kinds] }} stamp={stamp} announceOn={live.kinds} announcement={t("live.updated")} />
      {rows.length === 0 ? (
        <Card className="p-8 text-center text-sm text-slate-500">{t("workQueue.empty")}</Card>
      ) : (
        <ul className="space-y-3" data-testid="work-queue">
          {rows.map((r) => {
            const p = byNid.get(r.patientId);
            return (
              <li key={r.id} data-testid="work-item" data-id={r.id} data-status={r.status}>
                <Card className="p-4">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="space-y-1 text-sm">
                      <p className="flex flex-wrap items-center gap-2">
                        <StatusBadge kind="claim" status={r.status} />
                        <Link href={`/claims/${r.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                          {p ? `${p.givenName} ${p.familyName}` : t("workQueue.claim")}
                        </Link>
                        <span className="text-slate-500">
                          <time dateTime={r.updatedAt.toISOString()}>{format.dateTime(r.updatedAt, { dateStyle: "medium", timeStyle: "short" })}</time>
                        </span>
                        <span className="tabular-nums">{r.totalMinor === null ? "—" : formatMoney(r.totalMinor, locale, r.currency ?? undefined)}</span>
                      </p>
                      {deadlines.get(r.id) && <DeadlineBadge deadline={deadlines.get(r.id)!} />}
                      <PlatformErrors errors={r.errors} />
                      <p className="text-xs text-slate-500">{r.status === "rejected" ? t("workQueue.fixHint") : t("workQueue.retryHint")}</p>
                    </div>
                    <ClaimActions id={r.id} status={r.status} compact />
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
