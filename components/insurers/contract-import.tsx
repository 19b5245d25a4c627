"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { TableFrame } from "@/components/ui/table-frame";
import { importContractsAction, type ContractDiff, type ContractLineError } from "@/lib/contracts/browser";

type Outcome = { kind: "errors"; errors: ContractLineError[] } | { kind: "diff"; applied: boolean; diff: ContractDiff } | { kind: "failed"; text: string };

const riyals = (minor: number) => (minor / 100).toFixed(2);

/**
 * Administrators: a payer price list (CSV) — checked first (bad lines by number and column, or the
 * diff of what would change), then imported (docs/decisions/089).
 */
export function ContractImport() {
  const t = useTranslations("contracts");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [file, setFile] = useState<File>();
  const [outcome, setOutcome] = useState<Outcome>();

  const send = (apply: boolean) =>
    start(async () => {
      if (!file) return setOutcome({ kind: "failed", text: t("errors.fileMissing") });
      const result = await importContractsAction({ csv: await file.text(), fileName: file.name, apply });
      if (!result.ok) {
        const key = result.fieldErrors?.csv?.[0];
        return setOutcome({ kind: "failed", text: key === "fileTooLarge" ? t("errors.fileTooLarge") : t("errors.fileMissing") });
      }
      if ("errors" in result) return setOutcome({ kind: "errors", errors: result.errors });
      setOutcome({ kind: "diff", applied: result.applied, diff: result.diff });
      if (result.applied) router.refresh();
    });

  const problem = (e: ContractLineError) => t(`errors.${e.problem}` as "errors.required");
  const counts = (d: ContractDiff) => ({ added: d.added.length, changed: d.changed.length, removed: d.removed.length, unchanged: d.unchanged });

  return (
    <div className="space-y-3" data-testid="contract-import" aria-busy={pending || undefined}>
      <p className="text-sm text-slate-600">{t("description")}</p>
      <p className="text-xs text-slate-500" dir="ltr">{t("format")}</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium text-slate-800">
          {t("file")}
          <input
            type="file"
            accept=".csv,text/csv"
            className="mt-1 block text-sm"
            data-testid="contract-file"
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0]);
              setOutcome(undefined);
            }}
          />
        </label>
        <Button type="button" variant="secondary" busy={pending} onClick={() => send(false)} data-testid="contract-preview">
          {t("preview")}
        </Button>
        <Button type="button" busy={pending} disabled={outcome?.kind !== "diff" || outcome.applied} onClick={() => send(true)} data-testid="contract-apply">
          {t("apply")}
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {outcome?.kind === "failed" && <p className="text-sm text-red-800">{outcome.text}</p>}
        {outcome?.kind === "errors" && (
          <>
            <p className="mb-2 text-sm font-medium text-red-800">{t("badLines", { count: outcome.errors.length })}</p>
            <TableFrame label={t("badLines", { count: outcome.errors.length })} testId="contract-errors" maxHeight="max-h-80">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">{t("columns.line")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("columns.column")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("columns.problem")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {outcome.errors.map((e, n) => (
                  <tr key={n}>
                    <td className="px-3 py-1.5 tabular-nums">{e.line}</td>
                    <td className="px-3 py-1.5 font-mono" dir="ltr">{e.column}</td>
                    <td className="px-3 py-1.5">
                      {problem(e)}
                      {e.value ? <bdi className="ms-1 font-mono text-slate-500">({e.value})</bdi> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
          </>
        )}
        {outcome?.kind === "diff" && (
          <>
            <p className={`mb-2 text-sm font-medium ${outcome.applied ? "text-emerald-800" : "text-slate-800"}`}>{t(outcome.applied ? "applied" : "previewed", counts(outcome.diff))}</p>
            {outcome.diff.added.length + outcome.diff.changed.length + outcome.diff.removed.length > 0 && (
              <TableFrame label={t("columns.change")} testId="contract-diff" maxHeight="max-h-80">
                <thead className="bg-slate-50">
                  <tr>
                    <th scope="col" className="px-3 py-2 text-start">{t("columns.change")}</th>
                    <th scope="col" className="px-3 py-2 text-start">{t("columns.code")}</th>
                    <th scope="col" className="px-3 py-2 text-start">{t("columns.from")}</th>
                    <th scope="col" className="px-3 py-2 text-end">{t("columns.price")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {(["added", "changed", "removed"] as const).flatMap((kind) =>
                    outcome.diff[kind].map((c, n) => (
                      <tr key={`${kind}-${n}`}>
                        <td className="px-3 py-1.5">{t(`change.${kind}`)}</td>
                        <td className="px-3 py-1.5 font-mono" dir="ltr">
                          {c.insurerId} · {c.system} {c.code}
                          {c.network ? ` · ${c.network}` : ""}
                          {c.coverageClass ? ` · ${c.coverageClass}` : ""}
                        </td>
                        <td className="px-3 py-1.5 tabular-nums" dir="ltr">{c.effectiveFrom}</td>
                        <td className="px-3 py-1.5 text-end tabular-nums" dir="ltr">
                          {c.before ? riyals(c.before.priceMinor) : ""}
                          {c.before && c.after ? " → " : ""}
                          {c.after ? riyals(c.after.priceMinor) : ""}
                        </td>
                      </tr>
                    )),
                  )}
                </tbody>
              </TableFrame>
            )}
          </>
        )}
      </div>
    </div>
  );
}
