"use client";

import { useEffect, useRef, useState } from "react";

/** A submission status event as /api/events sends it (see lib/exchange/live.ts). */
export interface LiveStatusEvent {
  id: number;
  at: string;
  kind: string;
  submissionId: string | null;
  submissionKind: string | null;
  status: string | null;
  payload: Record<string, unknown> | null;
}

export type LiveConnection = "connecting" | "open" | "closed";

const DEFAULT_KINDS = ["submission.status"] as const;

/**
 * Subscribes to the portal's Server-Sent Events (`/api/events`) while the component is mounted
 * and calls `onEvent` for every `submission.status` event that passes `filter`. EventSource
 * reconnects by itself and sends Last-Event-ID, so nothing is missed across short drops. The
 * latest callbacks are always used without re-subscribing.
 */
export function useLiveEvents(
  onEvent: (event: LiveStatusEvent) => void,
  filter?: (event: LiveStatusEvent) => boolean,
  /** Event kinds to receive (default submission.status; visit runs send `visits.run`). */
  kinds: readonly string[] = DEFAULT_KINDS,
): LiveConnection {
  const handler = useRef(onEvent);
  const accept = useRef(filter);
  const [state, setState] = useState<LiveConnection>("connecting");
  useEffect(() => {
    handler.current = onEvent;
    accept.current = filter;
  });
  const kindsKey = kinds.join("|");
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/events");
    const onStatus = (message: MessageEvent<string>) => {
      let event: LiveStatusEvent;
      try {
        event = JSON.parse(message.data) as LiveStatusEvent;
      } catch {
        return;
      }
      if (!accept.current || accept.current(event)) handler.current(event);
    };
    const names = kindsKey.split("|");
    for (const name of names) source.addEventListener(name, onStatus as EventListener);
    source.onopen = () => setState("open");
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "closed" : "connecting");
    return () => {
      for (const name of names) source.removeEventListener(name, onStatus as EventListener);
      source.close();
    };
  }, [kindsKey]);
  return state;
}
