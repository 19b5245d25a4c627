"use client";

import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useLiveServerView } from "@/components/query/use-live-server-view";
import { PAGE_LIVE_KINDS } from "@/lib/pipeline/browser";
import { Button } from "@/components/ui/button";
import { cancelRunAction, startRunAction } from "@/lib/visits/browser";

export interface RunSummary {
  id: string;
  status: "scheduled" | "running" | "done" | "cancelled";
  runAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  total: number;
  done: number;
  problems: number;
}

/**
 * A list's runs with live progress, "check now", "schedule" and "cancel". Progress moves with each
 * `visits.run` event at once; the page itself (verdicts, the worklist) follows through its live
 * stamp (`useLiveServerView`), also every 3 s while a run is active in case an event was missed.
 */
export function RunPanel({ listId, runs: initial, stamp }: { listId: string; runs: RunSummary[]; stamp: number }) {
  const t = useTranslations("visits");
  const router = useRouter();
  const [runs, setRuns] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [at, setAt] = useState("");
  const ids = { at: useId() };
  // The portal's one format, in the clinic's time zone (the provider passes CLINIC_TIME_ZONE on), not the browser's.
  const format = useFormatter();
  const time = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });

  const active = runs.some((r) => r.status === "running" || r.status === "scheduled");
  useLiveServerView({
    query: { kinds: [...PAGE_LIVE_KINDS.visitRuns] },
    stamp,
    refetchInterval: active ? 3_000 : false,
    throttleMs: 1_000,
    onEvent: (event) => {
      const p = event.payload as { runId?: string; listId?: string; status: RunSummary["status"]; total: number; done: number; problems: number } | null;
      if (!p || p.listId !== listId) return;
      setRuns((current) => current.map((r) => (r.id === p.runId ? { ...r, status: p.status, total: p.total, done: Math.max(r.done, p.done), problems: Math.max(r.problems, p.problems) } : r)));
    },
  });

  async function start(run: string) {
    setBusy(true);
    const result = await startRunAction({ listId, run });
    setBusy(false);
    if (result.ok) {
      setRuns((current) => [...current, { id: result.runId, status: result.status as RunSummary["status"], runAt: run === "now" ? new Date().toISOString() : run, startedAt: null, finishedAt: null, total: result.total, done: 0, problems: 0 }]);
      router.refresh();
    }
  }

  return (
    <div className="space-y-4">
      {runs.length === 0 ? (
        <p className="text-sm text-slate-600">{t("list.noRuns")}</p>
      ) : (
        <ul className="space-y-3" aria-live="polite">
          {runs.map((run) => {
            const percent = run.total ? Math.round((run.done / run.total) * 100) : 100;
            return (
              <li key={run.id} className="rounded-md border border-slate-200 p-3" data-testid="visit-run" data-status={run.status}>
                <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <span className="font-medium text-slate-900">{t(`run.status.${run.status}`, { at: time(run.runAt) })}</span>
                  <span className="tabular-nums text-slate-700" data-testid="visit-run-progress">
                    {t("run.progress", { done: run.done, total: run.total, problems: run.problems })}
                  </span>
                </div>
                <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-label={t("run.live")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
                  <div className="h-full rounded-full bg-brand-700 transition-all" style={{ width: `${percent}%` }} />
                </div>
                {(run.status === "running" || run.status === "scheduled") && (
                  <button
                    type="button"
                    className="mt-2 text-sm font-medium text-red-800 underline"
                    onClick={async () => {
                      await cancelRunAction({ runId: run.id });
                      setRuns((current) => current.map((r) => (r.id === run.id ? { ...r, status: "cancelled" } : r)));
                    }}
                  >
                    {t("list.cancel")}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {!active && (
        <div className="flex flex-wrap items-end gap-3">
          <Button type="button" busy={busy} onClick={() => void start("now")} data-testid="run-now">
            {t("list.startNow")}
          </Button>
          <div>
            <label htmlFor={ids.at} className="block text-sm font-medium text-slate-800">
              {t("list.scheduleAt")}
            </label>
            <input id={ids.at} type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} className="mt-1 rounded-md border border-slate-300 px-3 py-2 text-sm" />
          </div>
          <Button type="button" variant="secondary" disabled={!at || busy} onClick={() => at && void start(new Date(at).toISOString())}>
            {t("list.schedule")}
          </Button>
        </div>
      )}
    </div>
  );
}
