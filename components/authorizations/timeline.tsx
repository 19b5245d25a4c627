import { getFormatter, getTranslations } from "next-intl/server";
import type { TimelineEntry } from "@/lib/exchange";

/** The submission's state changes, oldest first, with their source and time (clinic zone). */
export async function Timeline({ entries, use = "preauthorization" }: { entries: TimelineEntry[]; use?: "preauthorization" | "claim" }) {
  const t = await getTranslations("authorizations");
  const format = await getFormatter();
  return (
    <ol className="relative space-y-3 border-s border-slate-200 ps-4" data-testid="timeline">
      {entries.map((e) => (
        <li key={e.id} className="relative">
          <span aria-hidden className="absolute -start-[1.3rem] top-1.5 size-2.5 rounded-full bg-brand-600 ring-2 ring-white" />
          <p className="text-sm font-medium text-slate-900">
            {e.fromStatus === e.toStatus
              ? t("attempt")
              : use === "preauthorization" && (e.toStatus === "complete" || e.toStatus === "partial" || e.toStatus === "denied")
                ? t(`status.decided.${e.toStatus}`)
                : t(`status.${e.toStatus}`)}
            <span className="ms-2 text-xs font-normal text-slate-500">{t(`sources.${e.source}`)}</span>
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={e.at.toISOString()}>{format.dateTime(e.at, { dateStyle: "medium", timeStyle: "medium" })}</time>
            {typeof e.detail?.code === "string" && (
              <span dir="ltr" className="ms-2 font-mono">
                {e.detail.code}
              </span>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
