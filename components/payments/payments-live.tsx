"use client";

import { useTranslations } from "next-intl";
import { LiveRefresh } from "@/components/live/live-refresh";

/** The kinds the Payments page depends on (with `liveStamp` on the server). */
export const PAYMENTS_KINDS = ["payments.remittance"] as const;

/** The Payments page follows remittances as they arrive (no reload), announced to screen readers. */
export function PaymentsLive({ stamp }: { stamp: number }) {
  const t = useTranslations("payments.live");
  return <LiveRefresh query={{ kinds: [...PAYMENTS_KINDS] }} stamp={stamp} announceOn={PAYMENTS_KINDS} announcement={t("announce")} />;
}
