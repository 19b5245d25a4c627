"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { useLiveHub } from "@/components/live/live-events";
import { useLiveEvents, type LiveConnection, type LiveStatusEvent } from "@/components/live/use-live-events";
import { LIVE_VIEW_COOKIE } from "@/lib/auth/browser";
import { liveStampAction, type LiveStampQuery } from "@/lib/pipeline/browser";

/*
 * Server-rendered pages kept current by live events. A file of its own, without TanStack Query:
 * the pages that use it do not carry the query library (docs/decisions/108).
 */

/**
 * The cookie a live refresh carries: the key of the user view it keeps current, as the server gave
 * it (lib/auth staffPage). The server then renders without auditing a new PHI access
 * (docs/decisions/078). Set just before the refresh, for this page's path only, and cleared when the
 * refresh has arrived; a short lifetime covers a tab closed meanwhile.
 */
function liveViewCookie(viewKey: string | undefined, on: boolean): void {
  if (!viewKey || typeof document === "undefined") return;
  const path = window.location.pathname;
  document.cookie = on ? `${LIVE_VIEW_COOKIE}=${viewKey}; path=${path}; max-age=30; samesite=strict` : `${LIVE_VIEW_COOKIE}=; path=${path}; max-age=0; samesite=strict`;
}

export interface LiveServerView {
  connection: LiveConnection;
  /** How many new matching live events arrived since mount (for polite announcements). */
  changes: number;
}

/**
 * For pages the server renders whole (a submission's page, the work queue, payments): the page is
 * rendered at a live stamp (lib/pipeline `liveStamp`, the newest relevant live event when its data
 * was read). A matching event newer than that stamp is the news itself: the server components are
 * rendered again at once (router.refresh: no reload, no lost scroll or form input), without asking
 * the server anything first (docs/decisions/078). Bursts cause one refresh per `throttleMs`.
 *
 * Only when the tab's stream (re)opens — events may have passed while nobody listened — or on the
 * optional timer is the stamp asked for (`liveStampAction`), and the page refreshed if it moved.
 * With the page's `viewKey` (lib/auth staffPage), a refresh is not audited as a new PHI access.
 */
export function useLiveServerView({
  query,
  stamp,
  viewKey,
  throttleMs = 300,
  onEvent,
  refetchInterval,
}: {
  query: LiveStampQuery;
  stamp: number;
  /** The key of the audited user view this page is (`StaffPageContext.audit`); absent for pages that audit nothing. */
  viewKey?: string;
  throttleMs?: number;
  onEvent?: (event: LiveStatusEvent) => void;
  /** Also look on a timer (ms), e.g. while a run is active. */
  refetchInterval?: number | false;
}): LiveServerView {
  const router = useRouter();
  const [refreshing, startRefresh] = useTransition();
  const rendered = useRef(stamp);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ query, viewKey, throttleMs });
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    latest.current = { query, viewKey, throttleMs };
  });
  useEffect(() => {
    rendered.current = Math.max(rendered.current, stamp);
  }, [stamp]);
  useEffect(() => {
    if (!refreshing) liveViewCookie(latest.current.viewKey, false);
  }, [refreshing]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      liveViewCookie(latest.current.viewKey, true);
      startRefresh(() => router.refresh());
    }, latest.current.throttleMs);
  };
  /** The page has not shown this id yet: render it again. */
  const moved = (id: number) => {
    if (id <= rendered.current) return false;
    rendered.current = id;
    refresh();
    return true;
  };
  const matches = (e: LiveStatusEvent) => {
    const q = latest.current.query;
    return q.kinds.includes(e.kind) && (!q.submissionId || e.submissionId === q.submissionId) && (!q.submissionKind || e.submissionKind === q.submissionKind);
  };
  /** Asks for the stamp: only when the browser cannot know what it missed. */
  const look = () => {
    void liveStampAction(latest.current.query)
      .then((answer) => {
        if (answer.ok) moved(answer.stamp);
      })
      .catch(() => undefined);
  };

  // Mounted after a client-side navigation, on a stream already open: an event that came between
  // the server render and this mount was delivered before we listened. Look at what just arrived.
  const hub = useLiveHub();
  useEffect(() => {
    const missed = hub.recent(15_000).filter((e) => matches(e) && e.id > rendered.current);
    if (missed.length > 0) moved(Math.max(...missed.map((e) => e.id)));
    // Once, on mount (the first data is the server's render of this moment).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!refetchInterval) return;
    const every = setInterval(look, refetchInterval);
    return () => clearInterval(every);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refetchInterval]);
  const connection = useLiveEvents(
    (event) => {
      setChanges((n) => n + 1);
      onEvent?.(event);
      moved(event.id);
    },
    (event) => matches(event) && event.id > rendered.current,
    query.kinds,
    look,
  );
  return { connection, changes };
}
