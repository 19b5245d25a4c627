"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ScrubFinding } from "@/lib/scrubber/browser";

const TONE: Record<ScrubFinding["severity"], string> = {
  error: "border-red-200 bg-red-50 text-red-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  notice: "border-slate-200 bg-slate-50 text-slate-800",
};

/**
 * What the scrubber found before sending (docs/decisions/090): per finding its severity, the
 * rejection family and code, the element, the words and the fix, in the page's language; for
 * billing staff facing errors, an override with a reason (audited).
 */
export function ScrubFindings({
  findings,
  canOverride,
  busy,
  onOverride,
}: {
  findings: ScrubFinding[];
  canOverride: boolean;
  busy: boolean;
  onOverride: (reason: string) => void;
}) {
  const t = useTranslations("scrubber");
  const locale = useLocale() === "ar" ? "ar" : "en";
  const [reason, setReason] = useState("");
  const [reasonMissing, setReasonMissing] = useState(false);
  const errors = findings.filter((f) => f.severity === "error");
  const warnings = findings.filter((f) => f.severity === "warning");
  if (findings.length === 0) return null;
  return (
    <section aria-labelledby="scrub-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="scrub-findings">
      <h2 id="scrub-title" className="mb-2 text-base font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p role="alert" className={`mb-3 text-sm font-medium ${errors.length > 0 ? "text-red-800" : "text-amber-900"}`}>
        {errors.length > 0 ? t("errorsBlock") : warnings.length > 0 ? t("warningsAsk") : t("notices")}
      </p>
      <ul className="space-y-2">
        {findings.map((f, n) => (
          <li key={n} className={`rounded-md border p-3 text-sm ${TONE[f.severity]}`} data-testid={`scrub-finding-${f.rule}`} data-severity={f.severity}>
            <p className="flex flex-wrap items-center gap-2 font-semibold">
              <span>{t(`severity.${f.severity}`)}</span>
              <span className="rounded bg-white/70 px-1.5 font-mono text-xs" dir="ltr">
                {f.family} · {f.code}
              </span>
              <span>{f.message[locale]}</span>
            </p>
            <p className="mt-1">
              <span className="font-medium">{t("fix")}:</span> {f.fix[locale]}
            </p>
            <p className="mt-1 text-xs opacity-80">
              {t("element")}: <bdi className="font-mono" dir="ltr">{f.element}</bdi>
            </p>
          </li>
        ))}
      </ul>
      {errors.length > 0 && canOverride && (
        <div className="mt-4 rounded-md border border-slate-200 p-3" data-testid="scrub-override">
          <h3 className="text-sm font-semibold text-slate-900">{t("override.title")}</h3>
          <p className="mb-2 text-xs text-slate-600">{t("override.hint")}</p>
          <label className="block text-sm font-medium text-slate-800">
            {t("override.reason")}
            <textarea
              className="mt-1 block w-full rounded-md border border-slate-300 p-2 text-sm"
              rows={2}
              maxLength={500}
              value={reason}
              aria-invalid={reasonMissing || undefined}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setReasonMissing(false);
              }}
              data-testid="scrub-override-reason"
            />
          </label>
          {reasonMissing && <p className="mt-1 text-sm text-red-800">{t("override.reasonRequired")}</p>}
          <Button
            type="button"
            variant="secondary"
            className="mt-2"
            busy={busy}
            onClick={() => (reason.trim() ? onOverride(reason.trim()) : setReasonMissing(true))}
            data-testid="scrub-override-send"
          >
            {t("override.send")}
          </Button>
        </div>
      )}
    </section>
  );
}
