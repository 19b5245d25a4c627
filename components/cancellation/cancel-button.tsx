"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { cancelSubmissionAction, type CancelInput } from "@/lib/cancellation/browser";

const REASONS = ["WI", "NP", "TAS", "SU", "resubmission"] as const satisfies readonly CancelInput["reason"][];
const KNOWN_ERRORS = ["not_cancellable", "not_found", "platform", "forbidden"] as const;

/**
 * Cancel (authorization, claim in process) or nullify (decided claim) with the exchange's reason:
 * a dialog asks for the reason, the platform answers, the answer is shown and the page follows the
 * new status live.
 */
export function CancelButton({ id, kind, nullify = false, allowed = true }: { id: string; kind: "claim" | "preauthorization" | "prescription"; nullify?: boolean; allowed?: boolean }) {
  const t = useTranslations("cancellation");
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [reason, setReason] = useState<CancelInput["reason"] | "">("");
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, start] = useTransition();

  const send = () => {
    if (!reason) return;
    start(async () => {
      const result = await cancelSubmissionAction({ id, reason });
      if (result.ok) {
        setMessage(result.done ? { tone: "ok", text: t("done") } : { tone: "error", text: t("refused", { reason: result.reason ?? "" }) });
        dialog.current?.close();
        router.refresh();
        return;
      }
      const code = (KNOWN_ERRORS as readonly string[]).includes(result.error) ? result.error : "failed";
      setMessage({ tone: "error", text: t(`errors.${code}`, { reason: result.detail ?? "" }) });
    });
  };

  return (
    <div className="no-print flex flex-col items-end gap-1">
      {/* Stays mounted after the cancellation (the page re-renders live) so the platform's answer stays visible. */}
      {allowed && (
        <Button type="button" variant="secondary" onClick={() => dialog.current?.showModal()} data-testid="cancel-submission">
          {t(nullify ? "nullify" : "cancel")}
        </Button>
      )}
      <p role="status" className={`text-sm ${message?.tone === "ok" ? "text-emerald-800" : "text-red-700"}`} data-testid="cancel-result">
        {message?.text}
      </p>
      <dialog ref={dialog} aria-labelledby={titleId} className="m-auto w-full max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" data-testid="cancel-dialog">
        <form
          method="dialog"
          className="space-y-4 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
        >
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {t(`title.${kind}`)}
          </h2>
          <p className="text-sm text-slate-700">{t("intro")}</p>
          <fieldset disabled={pending} className="space-y-2">
            <legend className="mb-1 text-sm font-medium text-slate-800">{t("reason")}</legend>
            {REASONS.map((r) => (
              <label key={r} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} required data-testid={`cancel-reason-${r}`} />
                {t(`reasons.${r}`)}
              </label>
            ))}
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => dialog.current?.close()}>
              {t("keep")}
            </Button>
            <Button type="submit" variant="danger" busy={pending} disabled={!reason} data-testid="cancel-confirm">
              {t("confirm")}
            </Button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
