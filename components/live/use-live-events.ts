"use client";

import { useEffect, useRef } from "react";
import { useLiveConnection, useLiveHub, type LiveConnection, type LiveStatusEvent } from "./live-events";

export type { LiveConnection, LiveStatusEvent } from "./live-events";

const DEFAULT_KINDS = ["submission.status"] as const;

/**
 * Calls `onEvent` for every live event of `kinds` (default submission.status) that passes
 * `filter`, and `onOpen` each time the tab's stream (re)opens, while the component is mounted.
 * The latest callbacks are always used without re-subscribing. Data on screen should rather come
 * from `useLiveQuery`, which uses this to invalidate its query.
 */
export function useLiveEvents(
  onEvent: (event: LiveStatusEvent) => void,
  filter?: (event: LiveStatusEvent) => boolean,
  kinds: readonly string[] = DEFAULT_KINDS,
  onOpen?: () => void,
): LiveConnection {
  const hub = useLiveHub();
  const latest = useRef({ onEvent, filter, kinds, onOpen });
  useEffect(() => {
    latest.current = { onEvent, filter, kinds, onOpen };
  });
  useEffect(
    () =>
      hub.subscribe((event) => {
        const { onEvent: handle, filter: accept, kinds: wanted } = latest.current;
        if (wanted.includes(event.kind) && (!accept || accept(event))) handle(event);
      }),
    [hub],
  );
  useEffect(() => hub.onOpen(() => latest.current.onOpen?.()), [hub]);
  return useLiveConnection();
}
