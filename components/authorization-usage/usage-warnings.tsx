"use client";

import { useTranslations } from "next-intl";
import type { UsageWarning } from "@/lib/authorization-usage/browser";

/** Warnings before sending a claim against its linked authorization (quantity left, validity, service). */
export function UsageWarnings({ warnings }: { warnings: UsageWarning[] }) {
  const t = useTranslations("authorizationUsage");
  if (warnings.length === 0) return null;
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="usage-warnings">
      <p className="font-medium">{t("warnTitle")}</p>
      <ul className="mt-1 list-disc ps-5">
        {warnings.map((w, i) => (
          <li key={i} data-kind={w.kind}>
            {w.kind === "exceeds"
              ? t("warnExceeds", { code: w.code, asked: w.asked, remaining: w.remaining })
              : w.kind === "notAuthorized"
                ? t("warnNotAuthorized", { code: w.code })
                : t("warnOutside", { code: w.code, date: w.date, start: w.start ?? "—", end: w.end ?? "—" })}
          </li>
        ))}
      </ul>
    </div>
  );
}
