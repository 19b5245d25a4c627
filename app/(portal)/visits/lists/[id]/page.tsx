import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { RunPanel } from "@/components/visits/run-panel";
import { liveStamp, PAGE_LIVE_KINDS } from "@/lib/pipeline";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { getVisitList, runProgress, runsOfList, visitsOfList } from "@/lib/visits";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("visits"))("title") };
}

export default async function VisitListPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireArea("visits");
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const db = await getDb();
  // Read before the runs: a run moving after this moment makes the browser render the page again.
  const stamp = await liveStamp(db, user.roles, { kinds: [...PAGE_LIVE_KINDS.visitRuns] });
  const list = await getVisitList(db, id);
  if (!list) notFound();
  const t = await getTranslations("visits");
  const locale = await getLocale();
  const [runs, listVisits] = await Promise.all([runsOfList(db, id), visitsOfList(db, id)]);
  const summaries = await Promise.all(
    runs.map(async (r) => ({
      id: r.id,
      status: r.status,
      runAt: r.runAt.toISOString(),
      startedAt: r.startedAt?.toISOString() ?? null,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      total: r.total,
      ...(await runProgress(db, r.id)),
    })),
  );
  const badLines = [...new Set(list.problems.map((p) => p.line))];
  const lang = locale === "ar" ? "ar" : "en";
  return (
    <>
      <nav className="no-print mb-3 text-sm">
        <Link href="/visits" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="inline-block rtl:-scale-x-100">←</span> {t("list.back")}
        </Link>
      </nav>
      <PageHeader
        title={list.name}
        description={`${t(`sources.${list.source}`)} · ${t("list.accepted", { count: listVisits.length })}`}
        actions={
          <Link href={`/visits?list=${list.id}`} className={buttonClasses("secondary")}>
            {t("list.openWorklist")}
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-4">
          <h2 className="mb-3 text-base font-semibold text-slate-900">{t("list.runs")}</h2>
          {/* Keyed by the runs' state: a refresh with newer figures remounts the panel with them. */}
          <RunPanel key={summaries.map((s) => `${s.id}:${s.status}:${s.done}`).join("|")} listId={list.id} runs={summaries} stamp={stamp} />
        </Card>
        <Card className="p-4">
          <h2 className="mb-3 text-base font-semibold text-slate-900">{t("list.badRows")}</h2>
          {badLines.length === 0 ? (
            <p className="text-sm text-slate-700">{t("list.badRowsNone")}</p>
          ) : (
            <>
              <p className="mb-3 text-sm text-slate-700">{t("list.badRowsIntro", { count: badLines.length })}</p>
              <DataTable
                label={t("list.badRows")}
                testId="bad-rows"
                maxHeight=""
                dense
                rows={list.problems.map((p, i) => ({ ...p, i }))}
                rowKey={(p) => String(p.i)}
                rowProps={(p) => ({ "data-testid": "bad-row", "data-line": String(p.line) })}
                columns={[
                  { id: "line", header: t("columns.line"), className: "px-2 py-1.5 tabular-nums", cell: (p) => p.line },
                  { id: "field", header: t("columns.field"), className: "px-2 py-1.5 font-mono text-xs", dir: "ltr", cell: (p) => p.field },
                  { id: "reason", header: t("columns.reason"), cell: (p) => p.message[lang] },
                ]}
              />
            </>
          )}
        </Card>
      </div>
    </>
  );
}
