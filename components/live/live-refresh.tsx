"use client";

import { useState } from "react";
import { useLiveServerView } from "@/components/query/use-live-server-view";
import type { LiveStampQuery } from "@/lib/pipeline/browser";
import type { LiveStatusEvent } from "@/components/live/use-live-events";

/**
 * Keeps a server-rendered page current (lists of remittances, information requests, the work
 * queue) with `useLiveServerView`: the page is rendered again when a newer matching live event
 * arrives. Tells screen readers `announcement` when an event of `announceOn` arrives, or what
 * `announce` makes of an event (its words; undefined: nothing to say).
 * Render it with `liveStamp(...)` read before the page's own data, and the key `ctx.audit` gave.
 */
export function LiveRefresh({
  query,
  stamp,
  viewKey,
  announceOn = [],
  announcement = "",
  announce,
  throttleMs,
}: {
  query: LiveStampQuery;
  stamp: number;
  /** The audited view this page is (lib/auth staffPage `ctx.audit`): its refreshes are not new PHI accesses. */
  viewKey: string;
  announceOn?: readonly string[];
  announcement?: string;
  announce?: (event: LiveStatusEvent) => string | undefined;
  /** At most one look per this many ms during bursts (a batch being decided). */
  throttleMs?: number;
}) {
  const [said, setSaid] = useState("");
  useLiveServerView({ query, stamp, viewKey, ...(throttleMs ? { throttleMs } : {}), onEvent: (event) => {
      const words = announce ? announce(event) : announceOn.includes(event.kind) ? announcement : undefined;
      if (words) setSaid(words);
    },
  });
  return (
    <p className="sr-only" aria-live="polite" role="status">
      {said}
    </p>
  );
}
