"use client";

import { useTranslations } from "next-intl";
import { LiveBadge } from "@/components/live/live-badge";
import { LiveRefresh } from "./live-refresh";
import type { LiveStatusEvent } from "@/components/live/use-live-events";
import type { SubmissionStatus } from "@/lib/db";
import { PAGE_LIVE_KINDS, type LiveStampQuery } from "@/lib/pipeline/browser";
import { STATUS_WORDS, statusLabel } from "@/lib/i18n/browser";

/**
 * Keeps a submission's page current (components/live/live-refresh.tsx): a newer live event about it renders the
 * server components again (no reload, no lost scroll), as a refresh of the audited view `viewKey`;
 * a status change or a payer's question is announced to screen readers.
 */
export function SubmissionLiveRefresh({ submissionId, stamp, viewKey, use = "preauthorization" }: { submissionId: string; stamp: number; viewKey: string; use?: "preauthorization" | "claim" }) {
  const t = useTranslations("authorizations.live");
  const ir = useTranslations("informationRequests.live");
  const words = useTranslations("statusWords");
  const query: LiveStampQuery = { kinds: [...PAGE_LIVE_KINDS.submission], submissionId };
  const announce = (event: LiveStatusEvent): string | undefined => {
    if (event.kind === "information.request") return ir("announce");
    if (event.kind !== "submission.status") return undefined;
    const status = event.status ?? "";
    const label = STATUS_WORDS.includes(status as SubmissionStatus) ? words(statusLabel(use, status as SubmissionStatus).key) : status;
    return t("changed", { status: label });
  };
  return (
    <>
      <LiveBadge on={t("on")} off={t("off")} />
      <LiveRefresh query={query} stamp={stamp} viewKey={viewKey} announce={announce} />
    </>
  );
}
