"use client";

import { useQuery, type QueryKey } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLiveHub } from "@/components/live/live-events";
import { useLiveEvents, type LiveConnection, type LiveStatusEvent } from "@/components/live/use-live-events";
import { usePortalQueryClient } from "./query-client";

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

// Where it lived before (docs/decisions/108): importing it from here also loads TanStack Query.
export { useLiveServerView, type LiveServerView } from "./use-live-server-view";
