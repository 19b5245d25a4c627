"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useLiveEvents, type LiveStatusEvent } from "./use-live-events";

/**
 * Re-renders the server page (no reload) when live events of `kinds` arrive that pass `filter`,
 * at most every 300 ms, and tells screen readers `announcement` when one of `announceOn` comes.
 * Lists and queues use it; a submission's own page uses components/authorizations/live-refresh
 * (status words and a connection badge).
 */
export function LiveRefresh({
  kinds,
  filter,
  announceOn = [],
  announcement = "",
}: {
  kinds: readonly string[];
  filter?: (event: LiveStatusEvent) => boolean;
  announceOn?: readonly string[];
  announcement?: string;
}) {
  const router = useRouter();
  const [said, setSaid] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const connection = useLiveEvents(
    (event) => {
      if (announceOn.includes(event.kind)) setSaid(announcement);
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        router.refresh();
      }, 300);
    },
    filter,
    kinds,
  );
  // What happened between this page's render and the subscription would be missed: look again
  // each time the stream (re)opens (as the submission pages' LiveRefresh does).
  useEffect(() => {
    if (connection === "open") router.refresh();
  }, [connection, router]);
  return (
    <p className="sr-only" aria-live="polite" role="status">
      {said}
    </p>
  );
}
