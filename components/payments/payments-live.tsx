"use client";

import { useTranslations } from "next-intl";
import { LiveRefresh } from "@/components/live/live-refresh";

const KINDS = ["payments.remittance"] as const;

/** The Payments page follows remittances as they arrive (no reload), announced to screen readers. */
export function PaymentsLive() {
  const t = useTranslations("payments.live");
  return <LiveRefresh kinds={KINDS} announceOn={KINDS} announcement={t("announce")} />;
}
