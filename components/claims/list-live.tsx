"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";

/** Re-renders the claims list when a claim changes (at most once a second) and says so politely. */
export function ClaimsLiveRefresh() {
  const router = useRouter();
  const t = useTranslations("claims.live");
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [changes, setChanges] = useState(0);
  const connection = useLiveEvents(
    () => {
      setChanges((n) => n + 1);
      if (pending.current) return;
      pending.current = setTimeout(() => {
        pending.current = null;
        router.refresh();
      }, 1000);
    },
    (e) => e.submissionKind === "claim",
  );
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-500" data-testid="live-state" data-state={connection}>
      <span aria-hidden className={`size-2 rounded-full ${connection === "open" ? "bg-emerald-500" : "bg-slate-300"}`} />
      {connection === "open" ? t("on") : t("off")}
      <span className="sr-only" aria-live="polite">
        {changes ? t("updated") : ""}
      </span>
    </span>
  );
}
