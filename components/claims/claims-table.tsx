"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { submitSelectedAction, type ClaimTableRow } from "@/lib/claims/browser";
import { currencySymbol } from "@/lib/money/browser";
import { DeadlineBadge } from "@/components/deadlines/deadline-badge";
import { DataTable } from "@/components/ui/data-table";

export type { ClaimTableRow };

/**
 * The claims table with selection of drafts and "submit selected". Drafts that look already
 * claimed come back as a warning; the user may send them anyway (same batch).
 */
export function ClaimsTable({ rows }: { rows: ClaimTableRow[] }) {
  const t = useTranslations("claims");
  const locale = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, start] = useTransition();
  const [message, setMessage] = useState("");
  const [duplicates, setDuplicates] = useState<{ batchId: string; ids: string[] } | null>(null);
  const drafts = rows.filter((r) => r.status === "draft");
  const allSelected = drafts.length > 0 && drafts.every((r) => selected.has(r.id));

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const goToBatch = (batchId: string) => {
    const qs = new URLSearchParams(params.toString());
    qs.set("batch", batchId);
    // The list then shows the batch itself: a Draft filter would hide every claim just sent.
    for (const key of ["cursor", "status", "patient", "q", "insurer", "from", "to"]) qs.delete(key);
    router.push(`${pathname}?${qs.toString()}`);
    router.refresh();
  };

  const submit = (ids: string[], confirmDuplicates: boolean, batchId?: string) =>
    start(async () => {
      setMessage("");
      const result = await submitSelectedAction({ ids, confirmDuplicates, ...(batchId ? { batchId } : {}) });
      if (!result.ok) {
        setMessage(t("batch.error"));
        return;
      }
      setSelected(new Set());
      setDuplicates(result.duplicates.length ? { batchId: result.batchId, ids: result.duplicates } : null);
      const parts = [t("batch.submitted", { n: result.submitted.length })];
      if (result.invalid.length) parts.push(t("batch.invalid", { n: result.invalid.length }));
      setMessage(parts.join(" "));
      if (result.submitted.length) goToBatch(result.batchId);
    });

  const cell = "px-3 py-2";
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <Button type="button" disabled={selected.size === 0} busy={pending} onClick={() => submit([...selected], false)} data-testid="submit-selected">
          {t("batch.submitSelected", { n: selected.size })}
        </Button>
        <p className="text-sm text-slate-700" role="status" aria-live="polite" data-testid="batch-message">
          {message}
        </p>
      </div>
      {duplicates && (
        <div role="alert" className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="duplicate-warning">
          <p className="font-medium">{t("duplicate.batchTitle", { n: duplicates.ids.length })}</p>
          <p className="mt-1">{t("duplicate.text")}</p>
          <div className="mt-2 flex gap-2">
            <Button type="button" busy={pending} onClick={() => submit(duplicates.ids, true, duplicates.batchId)} data-testid="confirm-duplicates">
              {t("duplicate.confirm")}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setDuplicates(null)}>
              {t("duplicate.skip")}
            </Button>
          </div>
        </div>
      )}
      <DataTable
        label={t("title")}
        testId="claims-table"
        className="rounded-lg border border-slate-200 bg-white shadow-sm"
        empty={params.get("q") ? t("noMatch", { q: params.get("q")! }) : t("empty")}
        rows={rows}
        rowKey={(row) => row.id}
        rowProps={(row) => ({ className: "hover:bg-slate-50", "data-testid": "claim-row", "data-id": row.id, "data-status": row.status })}
        columns={[
          {
            id: "select",
            header: (
              <input
                type="checkbox"
                aria-label={t("batch.selectAll")}
                checked={allSelected}
                disabled={drafts.length === 0}
                onChange={() => setSelected(allSelected ? new Set() : new Set(drafts.map((d) => d.id)))}
                data-testid="select-all"
              />
            ),
            label: "",
            className: cell,
            cell: (row) =>
              row.status === "draft" && <input type="checkbox" aria-label={t("batch.select", { created: row.created })} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />,
          },
          {
            id: "claim",
            header: t("columns.claim"),
            className: `${cell}`,
            cell: (row) => (
              <>
                <Link href={row.status === "draft" ? `/claims/new?draft=${row.id}` : `/claims/${row.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline" data-testid="claim-number">
                  <bdi dir="ltr" className="whitespace-nowrap">{row.number}</bdi>
                </Link>
                {row.replaces && <span className="ms-2 text-xs text-slate-500">{t("columns.resubmission")}</span>}
                {row.service && <span className="block text-sm text-slate-700">{row.service}</span>}
                <time dateTime={row.createdIso} className="block text-xs text-slate-500 tabular-nums">
                  {row.created}
                </time>
              </>
            ),
          },
          { id: "patient", header: t("columns.patient"), className: cell, cell: (row) => row.patient },
          { id: "insurer", header: t("columns.insurer"), className: cell, cell: (row) => <bdi>{row.insurer}</bdi> },
          {
            id: "status",
            header: t("columns.status"),
            className: cell,
            cell: (row) => (
              <>
                <span data-testid="status-badge" data-status={row.status} data-word={row.statusWord}>
                  <Badge tone={row.statusTone}>{row.statusLabel}</Badge>
                </span>
                {row.payment && (
                  <span className={`mt-1 block text-xs ${row.payment.short ? "text-amber-900" : "text-emerald-800"}`} data-testid="claim-row-payment">
                    {row.payment.text}
                  </span>
                )}
                {row.deadline && (
                  <span className="mt-1 block">
                    <DeadlineBadge deadline={row.deadline} />
                  </span>
                )}
              </>
            ),
          },
          {
            id: "identifier",
            header: t("columns.identifier"),
            className: `max-w-40 truncate ${cell} font-mono text-xs`,
            dir: "ltr",
            cell: (row) => <span title={row.identifier}>{row.identifier}</span>,
          },
          { id: "total", header: t("columns.total", { currency: currencySymbol(locale) }), align: "end", className: `${cell} tabular-nums`, dir: "ltr", keyFigure: true, cell: (row) => row.total },
        ]}
      />
    </>
  );
}
