"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { CodeCombobox } from "@/components/coding/code-combobox";
import { FieldMessages, FormAlert, SelectField, describedBy, inputClasses } from "@/components/patients/form-controls";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { CATALOGUE_SYSTEMS, catalogueSystem } from "@/lib/terminology/browser";

interface Summary {
  system: string;
  version: string;
  imported: number;
  updated: number;
  unchanged: number;
  refused: number;
  problems: { line: number; message: string }[];
}

type State = { kind: "idle" } | { kind: "sending" } | { kind: "done"; summary: Summary } | { kind: "failed"; message?: string } | { kind: "missing"; field: "file" | "system" };

/**
 * Settings → Code catalogue: one file at a time to POST /api/terminology/import (the bytes as the
 * body, streamed and bounded there), then the counts and the refused lines by number (decision 086).
 */
export function TerminologyImportForm() {
  const t = useTranslations("terminology");
  const locale = useLocale() === "ar" ? "ar" : "en";
  const router = useRouter();
  const fileId = useId();
  const [format, setFormat] = useState<"csv" | "fhir">("csv");
  const [system, setSystem] = useState("");
  const [version, setVersion] = useState("");
  const [file, setFile] = useState<File | undefined>(undefined);
  const [state, setState] = useState<State>({ kind: "idle" });
  const systemName = (url: string) => catalogueSystem(url)?.[locale] ?? url;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setState({ kind: "missing", field: "file" });
    if (format === "csv" && !system) return setState({ kind: "missing", field: "system" });
    setState({ kind: "sending" });
    const params = new URLSearchParams({ format, ...(system ? { system } : {}), ...(version.trim() ? { version: version.trim() } : {}) });
    try {
      const response = await fetch(`/api/terminology/import?${params}`, {
        method: "POST",
        body: file,
        headers: { "content-type": "application/octet-stream", "x-file-name": encodeURIComponent(file.name) },
      });
      const body = (await response.json().catch(() => ({}))) as Partial<Summary> & { message?: string; error?: { message?: string } };
      if (response.status === 201) {
        setState({ kind: "done", summary: body as Summary });
        router.refresh();
      } else setState({ kind: "failed", message: body.message ?? body.error?.message });
    } catch {
      setState({ kind: "failed" });
    }
  };

  const busy = state.kind === "sending";
  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="grid gap-4 md:grid-cols-2" data-testid="terminology-import-form" noValidate>
        <SelectField label={t("format")} value={format} disabled={busy} onChange={(e) => setFormat(e.target.value as "csv" | "fhir")}>
          <option value="csv">{t("formats.csv")}</option>
          <option value="fhir">{t("formats.fhir")}</option>
        </SelectField>
        <SelectField
          label={t("system")}
          value={system}
          disabled={busy}
          onChange={(e) => setSystem(e.target.value)}
          errors={state.kind === "missing" && state.field === "system" ? [t("chooseSystem")] : undefined}
        >
          <option value="">{format === "fhir" ? t("systemFromFile") : "—"}</option>
          {CATALOGUE_SYSTEMS.map((s) => (
            <option key={s.key} value={s.key}>
              {s[locale]}
            </option>
          ))}
        </SelectField>
        <div>
          <label htmlFor={`${fileId}-version`} className="block text-sm font-medium text-slate-800">
            {t("version")}
          </label>
          <input
            id={`${fileId}-version`}
            value={version}
            maxLength={64}
            disabled={busy}
            dir="ltr"
            onChange={(e) => setVersion(e.target.value)}
            aria-describedby={describedBy(`${fileId}-version`, true, undefined)}
            className={inputClasses(false)}
          />
          <FieldMessages id={`${fileId}-version`} hint={t("versionHint")} />
        </div>
        <div>
          <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
            {t("file")}
          </label>
          <input
            id={fileId}
            type="file"
            accept={format === "csv" ? ".csv,text/csv" : ".json,application/json,application/fhir+json"}
            disabled={busy}
            onChange={(e) => setFile(e.target.files?.[0])}
            aria-invalid={state.kind === "missing" && state.field === "file" ? true : undefined}
            aria-describedby={describedBy(fileId, undefined, state.kind === "missing" && state.field === "file" ? [1] : undefined)}
            className="mt-1 block w-full text-sm file:me-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
            data-testid="terminology-file"
          />
          <FieldMessages id={fileId} errors={state.kind === "missing" && state.field === "file" ? [t("chooseFile")] : undefined} />
        </div>
        <div className="md:col-span-2">
          <Button type="submit" busy={busy} data-testid="terminology-import">
            {busy ? t("importing") : t("submit")}
          </Button>
        </div>
      </form>
      <div aria-live="polite">
        {state.kind === "failed" && <FormAlert>{state.message ? t("failed", { message: state.message }) : t("failedNetwork")}</FormAlert>}
        {state.kind === "done" && (
          <div className="space-y-3 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950" data-testid="terminology-result">
            <p className="font-medium">{t("done", { system: systemName(state.summary.system), version: state.summary.version })}</p>
            <p>{t("counts", { imported: state.summary.imported, updated: state.summary.updated, unchanged: state.summary.unchanged, refused: state.summary.refused })}</p>
          </div>
        )}
      </div>
      {state.kind === "done" && state.summary.problems.length > 0 && (
        <div data-testid="terminology-refused">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">{t("refusedTitle")}</h3>
          <DataTable
            label={t("refusedTitle")}
            rows={state.summary.problems}
            rowKey={(p) => String(p.line)}
            columns={[
              { id: "line", header: t("line"), className: "px-3 py-1.5 tabular-nums", cell: (p) => p.line },
              { id: "reason", header: t("reason"), cell: (p) => <span dir="ltr">{p.message}</span> },
            ]}
          />
          {state.summary.refused > state.summary.problems.length && <p className="mt-2 text-sm text-slate-600">{t("refusedMore", { count: state.summary.refused - state.summary.problems.length })}</p>}
        </div>
      )}
    </div>
  );
}

/** The catalogue tried as the forms use it: the code picker over every system. */
export function CatalogueTry() {
  const t = useTranslations("terminology");
  const locale = useLocale() === "ar" ? "ar" : "en";
  const [value, setValue] = useState<{ code: string; system?: string }>({ code: "" });
  return (
    <div className="space-y-2">
      <CodeCombobox
        systems={CATALOGUE_SYSTEMS.map((s) => s.key)}
        valueSystem={value.system}
        label={t("tryLabel")}
        value={value.code}
        onChange={(code, system) => setValue({ code, system })}
        testId="terminology-try"
      />
      {value.code && (
        <p className="text-sm text-slate-700" data-testid="terminology-chosen">
          {t("chosen", { code: value.code, system: (value.system && catalogueSystem(value.system)?.[locale]) ?? "" })}
        </p>
      )}
    </div>
  );
}
