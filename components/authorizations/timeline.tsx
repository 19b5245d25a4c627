import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { formatMoney } from "@/lib/money";
import type { SubmissionKind } from "@/lib/db";
import type { TimelineEntry } from "@/lib/submissions";
import { statusLabel } from "@/lib/i18n";
import type { StatusOutcome } from "@/lib/i18n";

/** Another submission's timeline shown inside this one's (a claim's appeals, docs/decisions/081). */
export interface LinkedTimeline {
  href: string;
  /** Words before each of its entries ("Appeal:"). */
  label: string;
  entries: TimelineEntry[];
  outcome?: StatusOutcome;
}

/**
 * The submission's state changes, oldest first, with their source and time (clinic zone), in the
 * portal's one status vocabulary. The outcome (what the decision paid) names the latest decision.
 * Linked timelines (its appeals) are merged in by time, each entry marked and linked.
 */
export async function Timeline({ entries: own, kind = "preauthorization", outcome, linked = [] }: { entries: TimelineEntry[]; kind?: SubmissionKind; outcome?: StatusOutcome; linked?: LinkedTimeline[] }) {
  const t = await getTranslations("authorizations");
  const words = await getTranslations("statusWords");
  const format = await getFormatter();
  // Decision 045: news that is not a status change (information requests, a refused cancellation).
  const notes = await getTranslations("informationRequests.timeline");
  const noteOf = (e: TimelineEntry) => payerNote(e) ?? (e.fromStatus === e.toStatus && typeof e.detail?.note === "string" && notes.has(e.detail.note) ? notes(e.detail.note) : undefined);
  // A payer's advanced authorization (docs/decisions/101): its arrival, reissues and cancellation, with the earlier decision kept.
  const [payer, locale] = [await getTranslations("authorizations.payer"), await getLocale()];
  function payerNote(e: TimelineEntry): string | undefined {
    if (e.detail?.origin !== "payer") return undefined;
    if (e.fromStatus === null) return payer("timeline.received");
    const note = typeof e.detail.note === "string" ? e.detail.note : undefined;
    return note && payer.has(`timeline.${note}`) ? payer(`timeline.${note}`) : undefined;
  }
  function payerDetail(e: TimelineEntry): string | undefined {
    if (e.detail?.origin !== "payer" || e.fromStatus === null || e.detail.note === "changeAsked") return undefined;
    const reason = typeof e.detail.reissueReason === "string" ? e.detail.reissueReason : undefined;
    const words = reason ? payer("reissueReason", { reason: payer.has(`reissueReasons.${reason}`) ? payer(`reissueReasons.${reason}`) : reason }) : undefined;
    const previous = e.detail.previous as { totalMinor?: number; period?: { end?: string } } | undefined;
    const total = typeof previous?.totalMinor === "number" ? formatMoney(previous.totalMinor, locale) : undefined;
    const until = previous?.period?.end ? format.dateTime(new Date(previous.period.end), { dateStyle: "medium", timeZone: "UTC" }) : undefined;
    const earlier = total ? (until ? payer("earlierUntil", { total, until }) : payer("earlier", { total })) : undefined;
    return [words, earlier].filter(Boolean).join(" · ") || undefined;
  }
  // Decision 097: the payer reissued its decision; the reason in the reader's language (its own words for a code we do not know).
  const reissue = await getTranslations("inbox.reissue");
  const reissueOf = (e: TimelineEntry): string | undefined => {
    const r = e.detail?.reissue as { code?: string; words?: string } | undefined;
    if (!r || typeof r !== "object") return undefined;
    const reason = r.code && reissue.has(`reasons.${r.code}`) ? reissue(`reasons.${r.code}`) : (r.words ?? r.code ?? reissue("reasons.none"));
    return reissue("line", { reason });
  };
  type Row = { e: TimelineEntry; last: boolean; outcome?: StatusOutcome; from?: LinkedTimeline };
  const rows: Row[] = [
    ...own.map((e, i): Row => ({ e, last: i === own.length - 1, outcome })),
    ...linked.flatMap((l) => l.entries.map((e, i): Row => ({ e, last: i === l.entries.length - 1, outcome: l.outcome, from: l }))),
  ].sort((a, b) => a.e.at.getTime() - b.e.at.getTime() || (a.from ? 1 : 0) - (b.from ? 1 : 0) || a.e.id - b.e.id);
  return (
    <ol className="relative space-y-3 border-s border-slate-200 ps-4" data-testid="timeline">
      {rows.map(({ e, last, outcome: decided, from }) => (
        <li key={`${from?.href ?? ""}${e.id}`} className="relative" data-linked={from ? "appeal" : undefined}>
          <span aria-hidden className={`absolute -start-[1.3rem] top-1.5 size-2.5 rounded-full ring-2 ring-white ${from ? "bg-amber-500" : "bg-brand-600"}`} />
          <p className="text-sm font-medium text-slate-900">
            {from && (
              <>
                <Link href={from.href} className="text-amber-800 underline-offset-2 hover:underline">
                  {from.label}
                </Link>{" "}
              </>
            )}
            {noteOf(e) ?? (e.fromStatus === e.toStatus ? t("attempt") : words(statusLabel(kind, e.toStatus, last ? decided : undefined).key))}
            {/* A real space: without it a screen reader reads "Draftby staff". */}{" "}
            <span className="ms-1 text-xs font-normal text-slate-500">{t(`sources.${e.source}`)}</span>
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={e.at.toISOString()}>{format.dateTime(e.at, { dateStyle: "medium", timeStyle: "medium" })}</time>
            {typeof e.detail?.platformReason === "string" && <span className="ms-1">— {e.detail.platformReason}</span>}
            {(payerDetail(e) ?? reissueOf(e)) && (
              <span className={payerDetail(e) ? "ms-1" : "ms-1 font-medium text-amber-800"} data-testid={payerDetail(e) ? "payer-reissue" : "reissue-reason"}>
                — {payerDetail(e) ?? reissueOf(e)}
              </span>
            )}
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
