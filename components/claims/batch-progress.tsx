"use client";

import { useTranslations } from "next-intl";
import { fromAction, useLiveQuery } from "@/components/query/use-live-query";
import { batchProgressAction } from "@/lib/claims/browser";
import type { BatchProgress } from "@/lib/claims";
import type { SubmissionStatus } from "@/lib/db";
import { statusLabel } from "@/lib/i18n/browser";

/**
 * Progress of a "submit selected" batch, read from the database (how many of the batch have left
 * `queued`): a TanStack query refreshed on every live claim event and every 2 s while unfinished.
 * The batch id lives in the URL, so a reload shows the same bar.
 */
export function BatchProgressBar({ batchId, initial }: { batchId: string; initial: BatchProgress }) {
  const t = useTranslations("claims.batch");
  const words = useTranslations("statusWords");
  const { data: progress } = useLiveQuery({
    queryKey: ["claims", "batch", batchId],
    queryFn: fromAction(() => batchProgressAction(batchId)),
    initialData: { ok: true as const, ...initial },
    live: (e) => e.submissionKind === "claim",
    // Claims leave the outbox without events of their own until answered: look every 2 s until all have left.
    refetchInterval: (p) => (p && p.total > 0 && p.done === p.total ? false : 2000),
  });
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
