"use client";

import { useTranslations } from "next-intl";
import { LiveRefresh } from "@/components/live/live-refresh";

const KINDS = ["information.request", "submission.note", "submission.status", "payment.remittance"] as const;

/**
 * Re-renders the page (no reload) when an information request arrives or changes — for one
 * submission (its page: also its status, notes and payments) or any (the work queue) — and says so
 * to screen readers.
 */
export function InformationRequestsLive({ submissionId }: { submissionId?: string }) {
  const t = useTranslations("informationRequests.live");
  return (
    <LiveRefresh
      kinds={KINDS}
      filter={(event) => (submissionId ? event.submissionId === submissionId : event.kind === "information.request")}
      announceOn={["information.request"]}
      announcement={t("announce")}
    />
  );
}
