"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { testPlatformConnectionAction } from "@/lib/platform/browser";
import type { TestConnectionResult } from "@/lib/platform";

/**
 * The "Test connection" button and its step-by-step result (announced through aria-live): of the
 * main connection, or of one facility's (its certificate and licence) when `facilityId` is given.
 */
export function TestConnection({ facilityId, facilityName }: { facilityId?: string; facilityName?: string } = {}) {
  const t = useTranslations("platform");
  const [result, setResult] = useState<TestConnectionResult>();
  const [pending, startTransition] = useTransition();

  const run = () => {
    setResult(undefined);
    startTransition(async () => {
      try {
        setResult(await testPlatformConnectionAction(facilityId ? { facilityId } : undefined));
      } catch {
        setResult({ ok: false, error: "failed" });
      }
    });
  };

  const passed = result?.ok === true && result.steps.length === 3 && result.steps.every((s) => s.ok);

  return (
    <div>
      {facilityName === undefined && (
        <>
          <h3 className="text-sm font-semibold">{t("test.title")}</h3>
          <p className="mt-1 text-sm text-slate-600">{t("test.help")}</p>
        </>
      )}
      <Button
        type="button"
        variant="secondary"
        className={facilityName === undefined ? "mt-3" : ""}
        busy={pending}
        onClick={run}
        aria-label={facilityName === undefined ? undefined : t("facilities.testOne", { name: facilityName })}
      >
        {pending ? t("test.running") : t("test.button")}
      </Button>
      <div aria-live="polite" className="mt-3">
        {result?.ok === false && (
          <p role="alert" className="text-sm text-red-800">
            {t(result.error === "failed" ? "test.error" : "test.forbidden")}
          </p>
        )}
        {result?.ok === true && (
          <>
            <p className={`text-sm font-medium ${passed ? "text-emerald-800" : "text-red-800"}`}>{passed ? t("test.passed") : t("test.failed")}</p>
            <ol className="mt-2 space-y-2">
              {result.steps.map((s) => (
                <li key={s.step} className="flex items-start gap-2 text-sm">
                  <span aria-hidden className={`mt-0.5 font-bold ${s.ok ? "text-emerald-700" : "text-red-700"}`}>
                    {s.ok ? "✓" : "✗"}
                  </span>
                  <span>
                    <span className="font-medium">{t(`steps.${s.step}`)}</span>
                    <span className="sr-only"> — {s.ok ? t("test.ok") : t("test.notOk")}</span>
                    <span className="ms-2 text-xs text-slate-500 tabular-nums">{t("test.ms", { ms: s.ms })}</span>
                    <span dir="ltr" className="mt-0.5 block break-all text-start font-mono text-xs text-slate-600">{s.detail}</span>
                  </span>
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </div>
  );
}
