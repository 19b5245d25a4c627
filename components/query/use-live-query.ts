"use client";

import { useQuery, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { useLiveHub } from "@/components/live/live-events";
import { useLiveEvents, type LiveConnection, type LiveStatusEvent } from "@/components/live/use-live-events";
import { LIVE_VIEW_COOKIE } from "@/lib/auth/browser";
import { usePortalQueryClient } from "./query-client";
import { liveStampAction, type LiveStampQuery } from "@/lib/pipeline/browser";

/** What a staff server action answers (lib/auth ActionResult), as far as a query needs it. */
type ActionAnswer = { ok: true } | { ok: false; error: string };

/** Thrown by `fromAction` when an action refuses: the query shows its last data and an error. */
export class ActionQueryError extends Error {
  constructor(readonly code: string) {
    super(`query action refused: ${code}`);
    this.name = "ActionQueryError";
  }
}

/** A query function from a staff server action (the action client): its failure becomes an error. */
export function fromAction<A extends ActionAnswer>(call: () => Promise<A>): () => Promise<Extract<A, { ok: true }>> {
  return async () => {
    const answer = await call();
    if (!answer.ok) throw new ActionQueryError((answer as { error: string }).error);
    return answer as Extract<A, { ok: true }>;
  };
}

export interface LiveQueryOptions<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  /** The server-rendered first data (the page renders with it; no loading state on arrival). */
  initialData: T;
  /** Which live events make this data stale. */
  live: (event: LiveStatusEvent) => boolean;
  /** Event kinds to listen to (default submission.status). */
  kinds?: readonly string[];
  /** Also refetch on a timer while mounted (ms), e.g. while a batch is being sent; a function decides from the data. */
  refetchInterval?: number | false | ((data: T | undefined) => number | false);
  /** Bursts of events (a batch of 200) cause one refetch per `throttleMs` (default 300 ms). */
  throttleMs?: number;
  /** Also told of each matching event as it arrives (announcements, optimistic feed entries). */
  onEvent?: (event: LiveStatusEvent) => void;
}

export interface LiveQueryResult<T> {
  data: T;
  connection: LiveConnection;
  /** The last refetch failed (the data shown is the last good one). */
  isError: boolean;
  isFetching: boolean;
  /** How many matching live events arrived since mount (for polite announcements). */
  changes: number;
}

/**
 * The one way a portal screen keeps server data current in the browser: a TanStack Query with the
 * server-rendered first data, invalidated by matching live events (throttled) and whenever the
 * live stream (re)opens, so a change between render and subscription is not missed.
 */
export function useLiveQuery<T>(options: LiveQueryOptions<T>): LiveQueryResult<T> {
  const client = usePortalQueryClient();
  const { queryKey, throttleMs = 300 } = options;
  const keyRef = useRef(queryKey);
  useEffect(() => {
    keyRef.current = queryKey;
  });
  const [mountedAt] = useState(() => Date.now());
  const query = useQuery({
    queryKey,
    queryFn: options.queryFn,
    initialData: options.initialData,
    initialDataUpdatedAt: mountedAt,
    refetchInterval: typeof options.refetchInterval === "function" ? (q) => (options.refetchInterval as (data: T | undefined) => number | false)(q.state.data) : (options.refetchInterval ?? false),
  }, client);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [changes, setChanges] = useState(0);
  const invalidate = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: keyRef.current });
    }, throttleMs);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  // Mounted after a client-side navigation, on a stream already open: an event that came between
  // the server render and this mount was delivered before we listened. Look at what just arrived.
  const hub = useLiveHub();
  useEffect(() => {
    const kinds = options.kinds ?? ["submission.status"];
    if (hub.recent(15_000).some((e) => kinds.includes(e.kind) && options.live(e))) invalidate();
    // Once, on mount (the first data is the server's render of this moment).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const connection = useLiveEvents(
    (event) => {
      setChanges((n) => n + 1);
      options.onEvent?.(event);
      invalidate();
    },
    options.live,
    options.kinds,
    invalidate,
  );
  // initialData makes data always defined.
  return { data: query.data as T, connection, isError: query.isError, isFetching: query.isFetching, changes };
}

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
