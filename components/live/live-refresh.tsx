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
}: {
  query: LiveStampQuery;
  stamp: number;
  announceOn?: readonly string[];
  announcement?: string;
}) {
  const [said, setSaid] = useState("");
  useLiveServerView({ query, stamp, onEvent: (event) => announceOn.includes(event.kind) && setSaid(announcement) });
  return (
    <p className="sr-only" aria-live="polite" role="status">
      {said}
    </p>
  );
}
