"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { sendPaymentNoticeAction } from "@/lib/payments/browser";

/** Mark received (PaymentNotice paid), then cleared (PaymentNotice cleared); the answer is announced. */
export function NoticeButtons({ remittanceId, paid, cleared }: { remittanceId: string; paid: boolean; cleared: boolean }) {
  const t = useTranslations("payments.actions");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string }>();
  const send = (status: "paid" | "cleared") =>
    start(async () => {
      setMessage(undefined);
      const result = await sendPaymentNoticeAction({ remittanceId, status });
      if (result.ok) setMessage({ tone: "ok", text: result.already ? t("already") : t("sent") });
      else if (result.error === "platform") setMessage({ tone: "error", text: t("error", { detail: result.detail ?? "" }) });
      else if (result.error === "not_paid_yet") setMessage({ tone: "error", text: t("notPaidYet") });
      else setMessage({ tone: "error", text: t("failed") });
      router.refresh();
    });
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">{t("hint")}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => send("paid")} disabled={paid || pending} busy={pending} data-testid="mark-received">
          {t("markReceived")}
        </Button>
        <Button type="button" variant="secondary" onClick={() => send("cleared")} disabled={!paid || cleared || pending} data-testid="mark-cleared">
          {t("markCleared")}
        </Button>
      </div>
      <p role="status" aria-live="polite" className={`text-sm ${message?.tone === "error" ? "text-red-800" : "text-emerald-800"}`} data-testid="notice-message">
        {message?.text}
      </p>
    </div>
  );
}
