"use client";

import Link from "next/link";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { registerDiscoveredCoverageAction } from "@/lib/eligibility/browser";
import type { EligibilityCheckView } from "@/lib/eligibility";

type Registered = { coverageId: string; patientId: string };

/**
 * The coverages a discovery found (guide 7.1, Table 36): insurer, member number, plan, class,
 * network, expiry and co-pay, each registered on the patient with one click; then the check with
 * that coverage is one more.
 */
export function DiscoveredCoverages({ check }: { check: EligibilityCheckView }) {
  const t = useTranslations("eligibility.discovery");
  const format = useFormatter();
  const locale = useLocale();
  const [registered, setRegistered] = useState<Record<string, Registered>>({});
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<Record<string, string>>({});
  const found = check.benefits?.discovered ?? [];
  if (!check.purposes.includes("discovery")) return null;
  if (found.length === 0) {
    return (
      <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950" data-testid="discovery-none">
        {t("none", { insurer: locale === "ar" ? check.insurer.nameAr : check.insurer.nameEn })}
      </p>
    );
  }

  const register = async (coverageRef: string) => {
    setBusy(coverageRef);
    setError((e) => ({ ...e, [coverageRef]: "" }));
    try {
      const answer = await registerDiscoveredCoverageAction({ checkId: check.id, coverageRef });
      if (answer.ok) setRegistered((r) => ({ ...r, [coverageRef]: { coverageId: answer.coverageId, patientId: answer.patientId } }));
      else setError((e) => ({ ...e, [coverageRef]: answer.fieldErrors?.coverageRef?.[0] ?? "failed" }));
    } catch {
      setError((e) => ({ ...e, [coverageRef]: "failed" }));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="rounded-lg border border-slate-200 bg-white" aria-labelledby="discovered-title" data-testid="discovered-coverages">
      <h2 id="discovered-title" className="border-b border-slate-100 px-5 py-3 text-base font-semibold text-slate-900">
        {t("title", { count: found.length })}
      </h2>
      <ul className="divide-y divide-slate-100">
        {found.map((c) => {
          const done = registered[c.coverageId];
          const facts: [string, React.ReactNode][] = [
            [t("insurer"), c.insurerName ?? (locale === "ar" ? check.insurer.nameAr : check.insurer.nameEn)],
            [t("memberId"), <span key="m" dir="ltr" className="font-mono">{c.memberId ?? "—"}</span>],
            [t("plan"), c.plan ?? "—"],
            [t("coverageClass"), c.coverageClass ? <span key="c" dir="ltr">{c.coverageClass}</span> : "—"],
            [t("network"), c.network ? <span key="n" dir="ltr">{c.network}</span> : "—"],
            [t("expires"), c.period?.end ? format.dateTime(new Date(`${c.period.end.slice(0, 10)}T00:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }) : "—"],
            [t("copay"), c.copayPercent !== undefined ? `${c.copayPercent}%` : "—"],
          ];
          return (
            <li key={c.coverageId} className="space-y-3 px-5 py-4" data-testid="discovered-coverage" data-coverage={c.coverageId}>
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${c.inforce ? "bg-emerald-100 text-emerald-900" : "bg-slate-100 text-slate-700"}`}>{c.inforce ? t("inForce") : t("notInForce")}</span>
                <span dir="ltr" className="font-mono text-xs text-slate-500">{c.coverageId}</span>
              </p>
              <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
                {facts.map(([label, value]) => (
                  <div key={label}>
                    <dt className="text-slate-500">{label}</dt>
                    <dd className="font-medium text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
              <div className="no-print flex flex-wrap items-center gap-3" aria-live="polite">
                {done ? (
                  <>
                    <span role="status" className="text-sm font-medium text-emerald-800">✓ {t("registered")}</span>
                    <Link href={`/eligibility?patient=${done.patientId}&coverage=${done.coverageId}`} className={buttonClasses("primary")} data-testid="check-registered">
                      {t("checkWithIt")}
                    </Link>
                  </>
                ) : (
                  <Button type="button" busy={busy === c.coverageId} onClick={() => void register(c.coverageId)} data-testid="register-coverage">
                    {t("register")}
                  </Button>
                )}
                {error[c.coverageId] ? (
                  <span role="alert" className="text-sm text-red-800">
                    {t(`errors.${["coverageDuplicate", "insurerUnknown", "memberIdMissing", "coverageUnknown"].includes(error[c.coverageId]!) ? error[c.coverageId] : "failed"}` as "errors.failed")}
                  </span>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
