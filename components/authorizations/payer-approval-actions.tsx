"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { askPayerChangeAction, changePayerAuthorizationAction } from "@/lib/authorizations/browser";

const MAX = 2000;

/**
 * What the clinic does with a payer's advanced authorization besides billing it (docs/decisions/101):
 * change it — a new prior-authorization draft repeating all its services, keeping its reference —
 * or ask the payer to modify or extend it (a Communication about it; the payer answers with a
 * reissued approval, shown on the timeline).
 */
export function PayerApprovalActions({ authorizationId }: { authorizationId: string }) {
  const t = useTranslations("authorizations.payer");
  const router = useRouter();
  const [busy, setBusy] = useState<"change" | "ask" | undefined>();
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | undefined>();
  const [text, setText] = useState("");
  const [fieldError, setFieldError] = useState("");
  const textId = useId();
  const errorId = useId();
  return (
    <div className="space-y-4" data-testid="payer-approval-actions">
      <div>
        <Button
          type="button"
          variant="secondary"
          busy={busy === "change"}
          onClick={async () => {
            setBusy("change");
            setMessage(undefined);
            try {
              const result = await changePayerAuthorizationAction(authorizationId);
              if (result.ok) return router.push(`/authorizations/new?draft=${result.id}`);
            } catch {}
            setMessage({ tone: "error", text: t("changeFailed") });
            setBusy(undefined);
          }}
        >
          {t("change")}
        </Button>
        <p className="mt-1 text-xs text-slate-600">{t("changeHint")}</p>
      </div>
      <form
        className="space-y-2"
        onSubmit={async (event) => {
          event.preventDefault();
          const trimmed = text.trim();
          if (!trimmed) return setFieldError(t("ask.empty"));
          if (trimmed.length > MAX) return setFieldError(t("ask.tooLong", { max: MAX }));
          setFieldError("");
          setBusy("ask");
          setMessage(undefined);
          try {
            const result = await askPayerChangeAction({ id: authorizationId, text: trimmed });
            if (result.ok) {
              setText("");
              setMessage({ tone: "ok", text: t("ask.sent") });
            } else {
              setMessage({ tone: "error", text: result.error === "platform" ? t("ask.failed") : result.error === "not_changeable" ? t("ask.notChangeable") : t("ask.empty") });
            }
          } catch {
            setMessage({ tone: "error", text: t("ask.failed") });
          }
          setBusy(undefined);
        }}
      >
        <fieldset disabled={busy === "ask"} className="space-y-2">
          <label htmlFor={textId} className="block text-sm font-medium">
            {t("ask.label")}
          </label>
          <textarea
            id={textId}
            data-testid="ask-payer-text"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={MAX}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? errorId : undefined}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
          />
          {fieldError && (
            <p id={errorId} className="text-sm text-red-700">
              {fieldError}
            </p>
          )}
          <Button type="submit" variant="secondary" busy={busy === "ask"}>
            {t("ask.send")}
          </Button>
        </fieldset>
      </form>
      <p aria-live="polite" role="status" className={`text-sm ${message?.tone === "error" ? "text-red-700" : "text-emerald-800"}`} data-testid="payer-approval-message">
        {message?.text}
      </p>
    </div>
  );
}
