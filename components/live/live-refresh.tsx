"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useLiveEvents, type LiveStatusEvent } from "./use-live-events";

/**
 * Re-renders the server page (no reload) when live events of `kinds` arrive that pass `filter`,
 * at most every 300 ms, and tells screen readers `announcement` when one of `announceOn` comes.
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
  useLiveEvents(
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
  return (
    <p className="sr-only" aria-live="polite" role="status">
      {said}
    </p>
  );
}
