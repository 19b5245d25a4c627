"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import type { SubmissionStatus } from "@/lib/db";
import { STATUS_WORDS, statusLabel } from "@/lib/i18n/browser";

/**
 * Keeps a submission's page current: when a status event for this submission arrives over
 * Server-Sent Events, the server components are re-rendered (router.refresh — no reload, no lost
 * scroll) and the change is announced to screen readers.
 */
export function LiveRefresh({ submissionId, use = "preauthorization" }: { submissionId: string; use?: "preauthorization" | "claim" }) {
  const router = useRouter();
  const t = useTranslations("authorizations.live");
  const words = useTranslations("statusWords");
  const [announcement, setAnnouncement] = useState("");
  const connection = useLiveEvents(
    (event) => {
      router.refresh();
      const status = event.status ?? "";
      const label = STATUS_WORDS.includes(status as SubmissionStatus) ? words(statusLabel(use, status as SubmissionStatus).key) : status;
      setAnnouncement(t("changed", { status: label }));
    },
    (event) => event.submissionId === submissionId,
  );
  // A change between this page's render and the subscription would be missed: look again each
  // time the stream (re)opens.
  useEffect(() => {
    if (connection === "open") router.refresh();
  }, [connection, router]);
  return (
    <>
      <span className="inline-flex items-center gap-1.5 text-xs text-slate-500" data-testid="live-state" data-state={connection}>
        <span aria-hidden className={`size-2 rounded-full ${connection === "open" ? "bg-emerald-500" : "bg-slate-300"}`} />
        {connection === "open" ? t("on") : t("off")}
      </span>
      <p className="sr-only" aria-live="polite" role="status">
        {announcement}
      </p>
    </>
  );
}
