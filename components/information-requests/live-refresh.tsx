"use client";

import { useTranslations } from "next-intl";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PAGE_LIVE_KINDS } from "@/lib/pipeline/browser";

/** Re-renders the information-requests page (no reload) when a request arrives or changes, and says so. */
export function InformationRequestsLive({ stamp, viewKey }: { stamp: number; viewKey: string }) {
  const t = useTranslations("informationRequests.live");
  return <LiveRefresh query={{ kinds: [...PAGE_LIVE_KINDS.informationRequests] }} stamp={stamp} viewKey={viewKey} announceOn={PAGE_LIVE_KINDS.informationRequests} announcement={t("announce")} />;
}
