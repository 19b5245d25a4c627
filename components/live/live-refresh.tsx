"use client";

import { useState } from "react";
import { useLiveServerView } from "@/components/query/use-live-query";
import type { LiveStampQuery } from "@/lib/exchange/browser";

/**
 * Keeps a server-rendered page current (lists of remittances, information requests, the work
 * queue): its live stamp is a TanStack query (`useLiveServerView`), and the page is rendered again
 * when the stamp moves. Tells screen readers `announcement` when an event of `announceOn` arrives.
 * Render it with `liveStamp(...)` read before the page's own data.
 */
export function LiveRefresh({
  query,
  stamp,
  announceOn = [],
  announcement = "",
  throttleMs,
}: {
  query: LiveStampQuery;
  stamp: number;
  announceOn?: readonly string[];
  announcement?: string;
  /** At most one look per this many ms during bursts (a batch being decided). */
  throttleMs?: number;
}) {
  const [said, setSaid] = useState("");
  useLiveServerView({ query, stamp, ...(throttleMs ? { throttleMs } : {}), onEvent: (event) => announceOn.includes(event.kind) && setSaid(announcement) });
  return (
    <p className="sr-only" aria-live="polite" role="status">
      {said}
    </p>
  );
}
