"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { batchProgressAction } from "@/lib/claims/browser";
import type { BatchProgress } from "@/lib/claims";
import type { SubmissionStatus } from "@/lib/db";
import { statusLabel } from "@/lib/i18n/browser";

/**
 * Progress of a "submit selected" batch, read from the database (how many of the batch have left
 * `queued`), refreshed on every live claim event and every 2 s. The batch id lives in the URL, so
 * a reload shows the same bar.
 */
export function BatchProgressBar({ batchId, initial }: { batchId: string; initial?: BatchProgress }) {
  const t = useTranslations("claims.batch");
  const words = useTranslations("statusWords");
  const [progress, setProgress] = useState<BatchProgress | undefined>(initial);
  const load = useCallback(async () => {
    const result = await batchProgressAction(batchId);
    if (result.ok) setProgress({ total: result.total, done: result.done, byStatus: result.byStatus });
  }, [batchId]);
  useLiveEvents(() => void load(), (e) => e.submissionKind === "claim");
  useEffect(() => {
    const first = setTimeout(() => void load(), 0);
    const timer = setInterval(() => void load(), 2000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [load]);
  const total = progress?.total ?? 0;
  const done = progress?.done ?? 0;
  const pct = total ? Math.round((done / total) * 100) : 0;
  const finished = total > 0 && done === total;
  return (
    <div className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="batch-progress" data-done={done} data-total={total}>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span id={`batch-${batchId}`} className="font-medium">
          {finished ? t("finished") : t("sending")}
        </span>
        <span className="tabular-nums" aria-live="polite" role="status">
          {progress ? t("count", { done, total }) : t("counting")}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={`batch-${batchId}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        className="mt-2 h-3 w-full overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      {progress && (
        <p className="mt-2 text-xs text-slate-600">
          {Object.entries(progress.byStatus)
            .map(([s, n]) => `${words(statusLabel("claim", s as SubmissionStatus).key)}: ${n}`)
            .join(" · ")}
        </p>
      )}
    </div>
  );
}
