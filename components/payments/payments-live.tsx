"use client";

import { useTranslations } from "next-intl";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PAGE_LIVE_KINDS } from "@/lib/pipeline/browser";

/** The Payments page follows remittances as they arrive (no reload), announced to screen readers. */
export function PaymentsLive({ stamp, viewKey }: { stamp: number; viewKey: string }) {
  const t = useTranslations("payments.live");
  return <LiveRefresh query={{ kinds: [...PAGE_LIVE_KINDS.payments] }} stamp={stamp} viewKey={viewKey} announceOn={PAGE_LIVE_KINDS.payments} announcement={t("announce")} />;
}
