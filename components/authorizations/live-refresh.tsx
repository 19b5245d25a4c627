"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { LiveBadge } from "@/components/live/live-badge";
import { useLiveServerView } from "@/components/query/use-live-server-view";
import type { SubmissionStatus } from "@/lib/db";
import { PAGE_LIVE_KINDS, type LiveStampQuery } from "@/lib/pipeline/browser";
import { STATUS_WORDS, statusLabel } from "@/lib/i18n/browser";

/**
 * Keeps a submission's page current (`useLiveServerView`): a newer live event about it renders the
 * server components again (no reload, no lost scroll), as a refresh of the audited view `viewKey`;
 * a status change or a payer's question is announced to screen readers.
 */
export function LiveRefresh({ submissionId, stamp, viewKey, use = "preauthorization" }: { submissionId: string; stamp: number; viewKey: string; use?: "preauthorization" | "claim" }) {
  const t = useTranslations("authorizations.live");
  const ir = useTranslations("informationRequests.live");
  const words = useTranslations("statusWords");
  const query: LiveStampQuery = { kinds: [...PAGE_LIVE_KINDS.submission], submissionId };
  const [announcement, setAnnouncement] = useState("");
  useLiveServerView({
    query,
    stamp,
    viewKey,
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
