"use client";

import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Card } from "@/components/ui/card";
import { fromAction, useLiveQuery } from "@/components/query/use-live-query";
import { liveBoardAction, type FeedItem, type LiveBoardView } from "@/lib/dashboard/browser";
import type { SubmissionStatus } from "@/lib/db";
import { STATUS_ORDER, statusLabel } from "@/lib/i18n/browser";

/**
 * The live status board as a TanStack query (useLiveQuery): the server's first view, then the same
 * view from `liveBoardAction` after live events (at most once a second). Events show in the feed
 * the moment they arrive; the patient's name follows with the re-read (events carry no patient data).
 */
const LIVE_BOARD_KINDS = ["submission.status", "information.request", "payment.remittance"] as const;

/**
 * `canOpen`: the kinds of record the viewer's roles may open; an event about another kind is words
 * without a link (a manager would get 403 on a claim page; docs/decisions/106).
 */
export function LiveBoard({ initial, locale, canOpen }: { initial: LiveBoardView; locale: string; canOpen: { preauthorization: boolean; claim: boolean } }) {
  const t = useTranslations("dashboard");
  const words = useTranslations("statusWords");
  // Events as they arrive, until the server's re-read (with the patient's name) includes them.
  const [arrived, setArrived] = useState<FeedItem[]>([]);
  const { data, connection } = useLiveQuery({
    queryKey: ["dashboard", "live-board"],
    queryFn: fromAction(() => liveBoardAction({})),
    initialData: { ok: true as const, ...initial },
    live: () => true,
    kinds: LIVE_BOARD_KINDS,
    throttleMs: 1000,
    onEvent: (event) => {
      const item: FeedItem = {
        id: event.id,
        at: event.at,
        kind: event.kind,
        note: typeof event.payload?.note === "string" ? event.payload.note : null,
        submissionKind: event.submissionKind,
        submissionId: event.submissionId,
        status: event.status,
      };
      setArrived((items) => (items.some((i) => i.id === item.id) ? items : [item, ...items].slice(0, 30)));
    },
  });
  const { counts, feed: served } = data;
  const feed = useMemo(() => {
    const ids = new Set(served.map((i) => i.id));
    return [...arrived.filter((i) => !ids.has(i.id)), ...served].sort((a, b) => b.id - a.id).slice(0, 30);
  }, [arrived, served]);
  const info = useTranslations("informationRequests.live");
  // The short number from the server's re-read; until it comes (a moment), the kind alone.
  const numberOf = (item: FeedItem) => item.number ?? served.find((i) => i.submissionId === item.submissionId && i.number)?.number ?? "…";
  const informationWords = (item: FeedItem): string | undefined =>
    (item.kind === "information.request" || item.kind === "payment.remittance") && item.note
      ? info(item.note as "informationRequested", { kind: item.submissionKind === "preauthorization" ? t("live.kind.preauthorization") : t("live.kind.claim"), id: numberOf(item) })
      : undefined;
  const number = new Intl.NumberFormat(locale);
  // next-intl's formatter carries the clinic's time zone (lib/i18n/request.ts), not the browser's.
  const format = useFormatter();
  const tone = connection === "open" ? "bg-emerald-500" : connection === "connecting" ? "bg-amber-400" : "bg-red-500";
  return (
    <div className="space-y-6">
      <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="live-connection">
        <span className={`inline-block h-2.5 w-2.5 rounded-full ${tone}`} aria-hidden="true" />
        {t(`live.connection.${connection}`)}
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        {counts.map((group) => (
          <Card key={group.kind} className="p-4">
            <h2 className="mb-3 text-base font-semibold text-slate-900">{t(group.kind === "claim" ? "live.claims" : "live.authorizations")}</h2>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid={`live-counts-${group.kind}`}>
              {STATUS_ORDER.map((status) => {
                const count = group.statuses.find((s) => s.status === status)?.count ?? 0;
                return (
                  <div key={status} className="rounded-md border border-slate-200 px-3 py-2" data-testid={`live-count-${group.kind}-${status}`} data-count={count}>
                    <dt className="text-xs text-slate-500">{words(statusLabel(group.kind, status).key)}</dt>
                    <dd className="text-xl font-semibold tabular-nums text-slate-900">{number.format(count)}</dd>
                  </div>
                );
              })}
            </dl>
          </Card>
        ))}
      </div>
      <Card className="p-4">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t("live.feed")}</h2>
        {feed.length === 0 ? (
          <p className="text-sm text-slate-600">{t("live.noEvents")}</p>
        ) : (
          <ol className="divide-y divide-slate-100 text-sm" aria-live="polite" data-testid="live-feed">
            {feed.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5" data-submission={item.submissionId ?? undefined}>
                {(() => {
                  const requestWords = informationWords(item);
                  const text = requestWords ?? t("live.event", {
                    kind: item.submissionKind === "preauthorization" ? t("live.kind.preauthorization") : t("live.kind.claim"),
                    id: numberOf(item),
                    status: item.status ? words(statusLabel(item.submissionKind, item.status as SubmissionStatus).key) : "—",
                  });
                  // A link only to what the viewer may open (docs/decisions/106); the patient either way.
                  const linked = item.submissionId && (item.submissionKind === "preauthorization" ? canOpen.preauthorization : item.submissionKind === "claim" && canOpen.claim);
                  return (
                    <span>
                      {linked ? (
                        <Link href={`/${item.submissionKind === "preauthorization" ? "authorizations" : "claims"}/${item.submissionId}`} className="text-brand-800 underline-offset-2 hover:underline">
                          {text}
                        </Link>
                      ) : (
                        text
                      )}
                      {item.submissionId && (item.subject ?? item.patient) && (
                        <span className="ms-2 text-slate-600" data-testid="live-feed-patient">
                          <bdi>{item.subject ?? item.patient}</bdi>
                        </span>
                      )}
                    </span>
                  );
                })()}
                <time dateTime={item.at} className="text-xs tabular-nums text-slate-500">
                  {format.dateTime(new Date(item.at), { dateStyle: "medium", timeStyle: "medium" })}
                </time>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
