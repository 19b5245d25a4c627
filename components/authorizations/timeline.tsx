import { getFormatter, getTranslations } from "next-intl/server";
import type { SubmissionKind } from "@/lib/db";
import type { TimelineEntry } from "@/lib/exchange";
import { statusLabel } from "@/lib/i18n";
import type { StatusOutcome } from "@/lib/i18n";

/**
 * The submission's state changes, oldest first, with their source and time (clinic zone), in the
 * portal's one status vocabulary. The outcome (what the decision paid) names the latest decision.
 */
export async function Timeline({ entries, kind = "preauthorization", outcome }: { entries: TimelineEntry[]; kind?: SubmissionKind; outcome?: StatusOutcome }) {
  const t = await getTranslations("authorizations");
  const words = await getTranslations("statusWords");
  const format = await getFormatter();
  // Issue 18: news that is not a status change (information requests, a refused cancellation).
  const notes = await getTranslations("informationRequests.timeline");
  const noteOf = (e: TimelineEntry) => (e.fromStatus === e.toStatus && typeof e.detail?.note === "string" && notes.has(e.detail.note) ? notes(e.detail.note) : undefined);
  const last = entries.length - 1;
  return (
    <ol className="relative space-y-3 border-s border-slate-200 ps-4" data-testid="timeline">
      {entries.map((e, i) => (
        <li key={e.id} className="relative">
          <span aria-hidden className="absolute -start-[1.3rem] top-1.5 size-2.5 rounded-full bg-brand-600 ring-2 ring-white" />
          <p className="text-sm font-medium text-slate-900">
            {noteOf(e) ?? (e.fromStatus === e.toStatus ? t("attempt") : words(statusLabel(kind, e.toStatus, i === last ? outcome : undefined).key))}
            {/* A real space: without it a screen reader reads "Draftby staff". */}{" "}
            <span className="ms-1 text-xs font-normal text-slate-500">{t(`sources.${e.source}`)}</span>
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={e.at.toISOString()}>{format.dateTime(e.at, { dateStyle: "medium", timeStyle: "medium" })}</time>
            {typeof e.detail?.platformReason === "string" && <span className="ms-1">— {e.detail.platformReason}</span>}
            {typeof e.detail?.code === "string" && (
              <>
                {" "}
                <span dir="ltr" className="ms-1 font-mono">
                  {e.detail.code}
                </span>
              </>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
