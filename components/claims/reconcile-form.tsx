"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { formatAmount } from "@/components/coding/format";
import { Button } from "@/components/ui/button";
import { reconcileAction } from "@/lib/claims/browser";
import type { ReconcileRow } from "@/lib/claims";

/** Search the platform's claims of a patient since a date and compare them with the portal's. */
export function ReconcileForm({ defaultSince }: { defaultSince: string }) {
  const t = useTranslations("claims.reconcile");
  const ts = useTranslations("statusWords.claim");
  const [pending, start] = useTransition();
  const [rows, setRows] = useState<ReconcileRow[] | null>(null);
  const [error, setError] = useState("");
  const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";
  return (
    <>
      <form
        className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          start(async () => {
            setError("");
            const result = await reconcileAction({ patient: String(data.get("patient") ?? "").trim(), since: String(data.get("since") ?? "") });
            if (result.ok) setRows(result.rows);
            else {
              setRows(null);
              setError(t.has(`errors.${result.error}` as "errors.invalid") ? t(`errors.${result.error}` as "errors.invalid") : t("errors.platform"));
            }
          });
        }}
      >
        <fieldset disabled={pending} className="flex flex-wrap items-end gap-3">
          <label className="text-sm font-medium">
            {t("patient")}
            <input name="patient" required inputMode="numeric" pattern="\d{10}" dir="ltr" className={input} data-testid="reconcile-patient" />
          </label>
          <label className="text-sm font-medium">
            {t("since")}
            <input type="date" name="since" required defaultValue={defaultSince} className={input} data-testid="reconcile-since" />
          </label>
          <Button type="submit" busy={pending} data-testid="reconcile-search">
            {t("search")}
          </Button>
        </fieldset>
      </form>
      <div aria-live="polite" role="status" className="mb-2 text-sm">
        {error && <span className="text-red-700">{error}</span>}
        {rows && t("found", { n: rows.length, problems: rows.filter((r) => r.problems.length).length })}
      </div>
      {rows && rows.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="reconcile-table">
            <caption className="sr-only">{t("title")}</caption>
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {(["platformId", "platformStatus", "platformTotal", "portal", "portalStatus", "portalTotal", "result"] as const).map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 text-start">
                    {t(`col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={r.platformId} data-testid="reconcile-row" data-problems={r.problems.join(",")}>
                  <td className="px-3 py-2 font-mono text-xs" dir="ltr">{r.platformId}</td>
                  <td className="px-3 py-2">{r.status ? (ts.has(r.status as "queued") ? ts(r.status as "queued") : r.status) : "—"}</td>
                  <td className="px-3 py-2 tabular-nums" dir="ltr">{formatAmount(r.totalMinor)}</td>
                  <td className="px-3 py-2">
                    {r.portal ? (
                      <Link href={`/claims/${r.portal.id}`} className="text-brand-800 underline">
                        {t("open")}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="px-3 py-2">{r.portal ? ts(r.portal.status) : "—"}</td>
                  <td className="px-3 py-2 tabular-nums" dir="ltr">{formatAmount(r.portal?.totalMinor)}</td>
                  <td className={`px-3 py-2 ${r.problems.length ? "font-medium text-red-800" : "text-emerald-800"}`}>
                    {r.problems.length ? r.problems.map((p) => t(`problem.${p}`)).join(", ") : t("same")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
