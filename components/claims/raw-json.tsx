"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Pretty-printed FHIR JSON for support staff, with a copy button. */
export function RawJson({ title, value, testId }: { title: string; value: unknown; testId: string }) {
  const t = useTranslations("claims.detail");
  const [copied, setCopied] = useState(false);
  const text = JSON.stringify(value, null, 2);
  return (
    <details className="rounded-md border border-slate-200" data-testid={testId}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium">{title}</summary>
      <div className="border-t border-slate-200 p-3">
        <Button
          type="button"
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(text);
            setCopied(true);
          }}
        >
          {copied ? t("copied") : t("copyJson")}
        </Button>
        <span className="sr-only" aria-live="polite">
          {copied ? t("copied") : ""}
        </span>
        <pre dir="ltr" className="mt-2 max-h-96 overflow-auto [contain:inline-size] rounded bg-slate-50 p-3 text-start font-mono text-xs">
          {text}
        </pre>
      </div>
    </details>
  );
}
