"use client";

import { useLiveConnection } from "./live-events";

/** "Live" / "Not live": whether the tab's event stream is open (data-state for tests). Never on paper (decision 123). */
export function LiveBadge({ on, off }: { on: string; off: string }) {
  const connection = useLiveConnection();
  return (
    <span className="no-print inline-flex items-center gap-1.5 text-xs text-slate-500" data-testid="live-state" data-state={connection}>
      <span aria-hidden className={`size-2 rounded-full ${connection === "open" ? "bg-emerald-500" : "bg-slate-300"}`} />
      {connection === "open" ? on : off}
    </span>
  );
}
