"use client";

import { createContext, useContext, useEffect, useRef, useState } from "react";
import type { LiveEvent } from "@/lib/pipeline/browser";

/** A live event as /api/events sends it (lib/pipeline/live.ts). */
export type LiveStatusEvent = LiveEvent;

export type LiveConnection = "connecting" | "open" | "closed";

/**
 * Every event kind the portal's stream carries (the server sends each user only what their roles
 * may see): submission status changes and timeline notes, payers' information requests, per-claim and whole
 * remittances, and visit-list runs.
 */
export const LIVE_EVENT_KINDS = ["submission.status", "submission.note", "information.request", "payment.remittance", "payments.remittance", "visits.run"] as const;

type Listener = (event: LiveStatusEvent) => void;
type OpenListener = () => void;

interface LiveHub {
  subscribe(listener: Listener): () => void;
  /** Called each time the stream (re)opens: whatever changed while it was down must be read again. */
  onOpen(listener: OpenListener): () => void;
  /**
   * Events received in the last `ms` milliseconds. A screen mounted after a client-side navigation
   * subscribes to a stream that is already open: an event between its server render and now was
   * delivered before it listened, and is found here.
   */
  recent(ms: number): LiveStatusEvent[];
}

/** How long received events are kept for screens that mount late (a server render and a navigation take well under this). */
const RECENT_MS = 30_000;

const LiveContext = createContext<LiveHub | null>(null);
const ConnectionContext = createContext<LiveConnection>("connecting");

/**
 * The one Server-Sent Events connection of a portal tab (mounted once by the portal layout). Every
 * live component and query subscribes here instead of opening its own EventSource. EventSource
 * reconnects by itself and sends Last-Event-ID, so short drops lose nothing.
 */
export function LiveEventsProvider({ children }: { children: React.ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const openListeners = useRef(new Set<OpenListener>());
  const received = useRef<{ at: number; event: LiveStatusEvent }[]>([]);
  const [connection, setConnection] = useState<LiveConnection>("connecting");
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/events");
    const onMessage = (message: MessageEvent<string>) => {
      let event: LiveStatusEvent;
      try {
        event = JSON.parse(message.data) as LiveStatusEvent;
      } catch {
        return;
      }
      const now = Date.now();
      received.current = [...received.current.filter((r) => now - r.at < RECENT_MS), { at: now, event }];
      for (const listener of [...listeners.current]) listener(event);
    };
    for (const kind of LIVE_EVENT_KINDS) source.addEventListener(kind, onMessage as EventListener);
    source.onopen = () => {
      setConnection("open");
      for (const listener of [...openListeners.current]) listener();
    };
    source.onerror = () => setConnection(source.readyState === EventSource.CLOSED ? "closed" : "connecting");
    return () => {
      for (const kind of LIVE_EVENT_KINDS) source.removeEventListener(kind, onMessage as EventListener);
      source.close();
    };
  }, []);
  const [hub] = useState(() => ({
    subscribe(listener: Listener) {
      listeners.current.add(listener);
      return () => void listeners.current.delete(listener);
    },
    onOpen(listener: OpenListener) {
      openListeners.current.add(listener);
      return () => void openListeners.current.delete(listener);
    },
    recent(ms: number) {
      const since = Date.now() - Math.min(ms, RECENT_MS);
      return received.current.filter((r) => r.at >= since).map((r) => r.event);
    },
  }));
  return (
    <LiveContext.Provider value={hub}>
      <ConnectionContext.Provider value={connection}>{children}</ConnectionContext.Provider>
    </LiveContext.Provider>
  );
}

export function useLiveHub(): LiveHub {
  const hub = useContext(LiveContext);
  if (!hub) throw new Error("useLiveHub: no LiveEventsProvider above (the portal layout mounts it)");
  return hub;
}

/** Whether the tab's live stream is open (for the "Live" badges). */
export function useLiveConnection(): LiveConnection {
  return useContext(ConnectionContext);
}
