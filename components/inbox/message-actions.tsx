"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { dismissInboxMessageAction, matchInboxMessageAction, openAdvancedAuthorizationAction } from "@/lib/pipeline/browser";

const KNOWN_ERRORS = ["invalid", "settled", "no_decision", "no_submission", "not_found", "not_available", "forbidden"] as const;

/**
 * What billing does with a message nothing matched: match it to a submission (its decision is
 * applied there), open it as an advanced authorization (only when that area is wired in), or
 * dismiss it with a reason. The page refreshes afterwards.
 */
export function MessageActions({ id, canMatch, canOpenAdvanced }: { id: string; canMatch: boolean; canOpenAdvanced: boolean }) {
  const t = useTranslations("inbox.actions");
  const router = useRouter();
  const reasonId = useId();
  const matchId = useId();
  const errorId = useId();
  const [reason, setReason] = useState("");
  const [submissionId, setSubmissionId] = useState("");
  const [error, setError] = useState("");
  const [pending, start] = useTransition();

  const run = (call: () => Promise<{ ok: boolean; error?: string; href?: string }>) =>
    start(async () => {
      setError("");
      const result = await call();
      if (result.ok) {
        if (result.href) router.push(result.href);
        else router.refresh();
        return;
      }
      const code = (KNOWN_ERRORS as readonly string[]).includes(result.error ?? "") ? result.error! : "failed";
      setError(t(`errors.${code}`));
    });

  return (
    <fieldset disabled={pending} className="mt-3 space-y-3 border-t border-slate-100 pt-3" aria-describedby={error ? errorId : undefined}>
      {canMatch && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            run(() => matchInboxMessageAction({ id, submissionId: submissionId.trim() }));
          }}
        >
          <label htmlFor={matchId} className="block text-sm font-medium text-slate-800">
            {t("matchLabel")}
            <input
              id={matchId}
              value={submissionId}
              onChange={(e) => setSubmissionId(e.target.value)}
              dir="ltr"
              className="mt-1 block w-80 max-w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
              placeholder="00000000-0000-0000-0000-000000000000"
              data-testid="match-submission"
            />
          </label>
          <Button type="submit" variant="secondary" data-testid="match-button">
            {t("match")}
          </Button>
        </form>
      )}
      {canOpenAdvanced && (
        <Button type="button" variant="secondary" onClick={() => run(() => openAdvancedAuthorizationAction({ id }))} data-testid="open-advanced">
          {t("openAdvanced")}
        </Button>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (reason.trim().length < 3) {
            setError(t("errors.reasonTooShort"));
            return;
          }
          run(() => dismissInboxMessageAction({ id, reason: reason.trim() }));
        }}
      >
        <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
          {t("dismissLabel")}
          <input
            id={reasonId}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            aria-invalid={error === t("errors.reasonTooShort") || undefined}
            className="mt-1 block w-80 max-w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
            data-testid="dismiss-reason"
          />
        </label>
        <Button type="submit" variant="secondary" data-testid="dismiss-button">
          {t("dismiss")}
        </Button>
      </form>
      <p id={errorId} role="alert" aria-live="polite" className="text-sm text-red-700" data-testid="inbox-action-error">
        {error}
      </p>
    </fieldset>
  );
}
