"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { formatAmount } from "@/components/coding/format";
import { Button } from "@/components/ui/button";
import { reconcileAction } from "@/lib/claims/browser";
import type { ReconcileRow } from "@/lib/claims";
import { DataTable } from "@/components/ui/data-table";

const cell = "px-3 py-2";

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
        <DataTable
          label={t("title")}
          testId="reconcile-table"
          className="rounded-lg border border-slate-200 bg-white shadow-sm"
          rows={rows}
          rowKey={(r) => r.platformId ?? `identifier:${r.identifierValue ?? ""}`}
          rowProps={(r) => ({ "data-testid": "reconcile-row", "data-problems": r.problems.join(",") })}
          columns={[
            { id: "platformId", header: t("col.platformId"), className: "px-3 py-2 font-mono text-xs", dir: "ltr", cell: (r) => r.platformId ?? "—" },
            { id: "platformStatus", header: t("col.platformStatus"), className: cell, cell: (r) => (r.status ? (ts.has(r.status as "queued") ? ts(r.status as "queued") : r.status) : "—") },
            { id: "platformTotal", header: t("col.platformTotal"), className: `${cell} tabular-nums`, dir: "ltr", cell: (r) => formatAmount(r.totalMinor) },
            {
              id: "portal",
              header: t("col.portal"),
              className: cell,
              cell: (r) =>
                r.portal ? (
                  <Link href={`/claims/${r.portal.id}`} className="text-brand-800 underline">
                    {t("open")}
                  </Link>
                ) : (
                  "—"
                ),
            },
            { id: "portalStatus", header: t("col.portalStatus"), className: cell, cell: (r) => (r.portal ? ts(r.portal.status) : "—") },
            { id: "portalTotal", header: t("col.portalTotal"), className: `${cell} tabular-nums`, dir: "ltr", cell: (r) => formatAmount(r.portal?.totalMinor) },
            {
              id: "result",
              header: t("col.result"),
              className: cell,
              cellProps: (r) => ({ className: r.problems.length ? "font-medium text-red-800" : "text-emerald-800" }),
              cell: (r) => (r.problems.length ? r.problems.map((p) => t(`problem.${p}`)).join(", ") : t("same")),
            },
          ]}
        />
      )}
    </>
  );
}
