"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { statusCheckAction, type StatusCheckResult } from "@/lib/cancellation/browser";
import type { SubmissionStatus } from "@/lib/db";
import { dispositionWords, statusLabel } from "@/lib/i18n/browser";
import { PlatformWordsText } from "@/components/claims/platform-words";

const KNOWN_ERRORS = ["not_sent", "not_found", "platform", "forbidden"] as const;
const PLATFORM_WORDS = ["queued", "pended", "complete", "partial", "denied", "cancelled"];

/** Status check on demand: what the platform says now beside what the portal believes. */
export function StatusCheckPanel({ id, kind }: { id: string; kind: "claim" | "preauthorization" }) {
  const t = useTranslations("statusCheck");
  const words = useTranslations("statusWords");
  const locale = useLocale();
  const router = useRouter();
  const [check, setCheck] = useState<StatusCheckResult | null>(null);
  const [error, setError] = useState("");
  const [pending, start] = useTransition();
  const run = () =>
    start(async () => {
      setError("");
      const result = await statusCheckAction(id);
      if (result.ok) {
        setCheck(result.check);
        if (result.check.updated) router.refresh();
        return;
      }
      const code = (KNOWN_ERRORS as readonly string[]).includes(result.error) ? result.error : "failed";
      setError(t(`errors.${code}`, { reason: result.detail ?? "" }));
    });
  return (
    <section aria-labelledby={`status-check-${id}`} className="space-y-3 text-sm" data-testid="status-check">
      <div className="flex items-center justify-between gap-2">
        <h2 id={`status-check-${id}`} className="font-medium">
          {t("title")}
        </h2>
        <Button type="button" variant="secondary" busy={pending} onClick={run} data-testid="status-check-run">
          {t("button")}
        </Button>
      </div>
      <p className="text-xs text-slate-600">{t("hint")}</p>
      <div aria-live="polite">
        {check && (
          <dl className="grid grid-cols-2 gap-2" data-testid="status-check-result" data-agree={check.agree}>
            <div>
              <dt className="text-slate-500">{t("portal")}</dt>
              <dd data-testid="status-check-portal">{words(statusLabel(kind, check.portal as SubmissionStatus).key)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t("platform")}</dt>
              <dd data-testid="status-check-platform">{t(`platformWords.${check.platform && PLATFORM_WORDS.includes(check.platform) ? check.platform : "unknown"}`)}</dd>
            </div>
            {check.disposition && (
              // In the page's language when known; the platform's own words kept as a secondary line.
              <p className="col-span-2 text-start text-slate-700" data-testid="status-check-disposition">
                <PlatformWordsText value={dispositionWords(check.disposition, locale)} />
              </p>
            )}
            <p className={`col-span-2 ${check.agree ? "text-emerald-800" : "text-amber-800"}`}>{check.agree ? t("agree") : t("differ")}</p>
            {check.updated && <p className="col-span-2 text-slate-700">{t("updated")}</p>}
          </dl>
        )}
        {error && (
          <p role="alert" className="text-red-700">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
