"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";

const KINDS = ["information.request", "submission.note", "submission.status"] as const;

/**
 * Re-renders the page (no reload) when an information request arrives or changes — for one
 * submission (its page) or any (the work queue) — and says so to screen readers.
 */
export function InformationRequestsLive({ submissionId }: { submissionId?: string }) {
  const router = useRouter();
  const t = useTranslations("informationRequests.live");
  const [announcement, setAnnouncement] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents(
    (event) => {
      if (event.kind === "information.request") setAnnouncement(t("announce"));
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        router.refresh();
      }, 300);
    },
    (event) => (submissionId ? event.submissionId === submissionId : event.kind === "information.request"),
    KINDS,
  );
  return (
    <p className="sr-only" aria-live="polite" role="status">
      {announcement}
    </p>
  );
}
