"use client";

import { useTranslations } from "next-intl";
import { LiveRefresh } from "@/components/live/live-refresh";

/** The kinds the information-requests page depends on (with `liveStamp` on the server). */
export const INFORMATION_REQUEST_KINDS = ["information.request"] as const;

/** Re-renders the information-requests page (no reload) when a request arrives or changes, and says so. */
export function InformationRequestsLive({ stamp }: { stamp: number }) {
  const t = useTranslations("informationRequests.live");
  return <LiveRefresh query={{ kinds: [...INFORMATION_REQUEST_KINDS] }} stamp={stamp} announceOn={INFORMATION_REQUEST_KINDS} announcement={t("announce")} />;
}
