"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { LiveBadge } from "@/components/live/live-badge";
import { useLiveServerView } from "@/components/query/use-live-query";
import type { SubmissionStatus } from "@/lib/db";
import { PAGE_LIVE_KINDS, type LiveStampQuery } from "@/lib/exchange/browser";
import { STATUS_WORDS, statusLabel } from "@/lib/i18n/browser";

/**
 * Keeps a submission's page current: its live stamp is a TanStack query (`useLiveServerView`) and
 * the server components are rendered again when it moves (no reload, no lost scroll); a status
 * change or a payer's question is announced to screen readers.
 */
export function LiveRefresh({ submissionId, stamp, use = "preauthorization" }: { submissionId: string; stamp: number; use?: "preauthorization" | "claim" }) {
  const t = useTranslations("authorizations.live");
  const ir = useTranslations("informationRequests.live");
  const words = useTranslations("statusWords");
  const query: LiveStampQuery = { kinds: [...PAGE_LIVE_KINDS.submission], submissionId };
  const [announcement, setAnnouncement] = useState("");
  useLiveServerView({
    query,
    stamp,
    onEvent: (event) => {
      if (event.kind === "information.request") return setAnnouncement(ir("announce"));
      if (event.kind !== "submission.status") return;
      const status = event.status ?? "";
      const label = STATUS_WORDS.includes(status as SubmissionStatus) ? words(statusLabel(use, status as SubmissionStatus).key) : status;
      setAnnouncement(t("changed", { status: label }));
    },
  });
  return (
    <>
      <LiveBadge on={t("on")} off={t("off")} />
      <p className="sr-only" aria-live="polite" role="status">
        {announcement}
      </p>
    </>
  );
}
