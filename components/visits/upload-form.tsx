"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { uploadVisitListAction } from "@/lib/visits/browser";

const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";
const SAMPLE = [
  "national_id,date,insurer,services,given_name,family_name,birth_date,gender",
  "1000000001,2026-03-02,payer-rimal,99213 92004,,,,",
  "1000000002,2026-03-02,payer-wadi,99213,,,,",
  "1234567890,2026-03-02,,99213,,,,",
  "1048573628,2026-02-30,payer-nakheel,85025,,,,",
  "1122334459,2026-03-02,payer-unknown,99213,,,,",
].join("\n");

/** Upload a CSV visit list: name, file, threshold, registration of unknown patients, run now / at a time / later. */
export function UploadForm({ defaultName }: { defaultName: string }) {
  const t = useTranslations("visits.upload");
  const router = useRouter();
  const ids = { name: useId(), file: useId(), help: useId(), threshold: useId(), runAt: useId(), error: useId() };
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<"none" | "now" | "at">("now");

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const file = form.get("file");
    if (!name) return setError("nameRequired");
    if (!(file instanceof File) || file.size === 0) return setError("fileRequired");
    if (file.size > 1_000_000) return setError("fileTooLarge");
    let runValue: string = run;
    if (run === "at") {
      const at = String(form.get("runAt") ?? "");
      const date = at ? new Date(at) : undefined;
      if (!date || Number.isNaN(date.getTime())) return setError("runAtRequired");
      runValue = date.toISOString();
    }
    setError(undefined);
    setBusy(true);
    const result = await uploadVisitListAction({
      name,
      csv: await file.text(),
      register: form.get("register") === "on",
      lowThresholdPercent: Number(form.get("threshold") ?? 20) || 20,
      run: runValue,
    });
    if (result.ok) {
      router.push(`/visits/lists/${result.listId}`);
      return;
    }
    setBusy(false);
    const field = result.fieldErrors ? Object.values(result.fieldErrors)[0]?.[0] : undefined;
    setError(field && ["nameRequired", "fileRequired", "fileTooLarge"].includes(field) ? field : "failed");
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-describedby={error ? ids.error : undefined}>
      <div>
        <label htmlFor={ids.name} className="text-sm font-medium text-slate-800">
          {t("name")}
        </label>
        <input id={ids.name} name="name" defaultValue={defaultName} placeholder={t("namePlaceholder")} className={input} maxLength={120} required />
      </div>
      <div>
        <label htmlFor={ids.file} className="text-sm font-medium text-slate-800">
          {t("file")}
        </label>
        <input id={ids.file} name="file" type="file" accept=".csv,text/csv" aria-describedby={ids.help} className={`${input} file:me-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1`} required />
        <p id={ids.help} className="mt-1 text-xs text-slate-600">
          {t("fileHelp")}{" "}
          <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE)}`} download="visits-sample.csv" className="font-medium text-brand-800 underline">
            {t("sample")}
          </a>
        </p>
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="register" defaultChecked className="mt-0.5 size-4 accent-brand-700" />
        <span>{t("register")}</span>
      </label>
      <div>
        <label htmlFor={ids.threshold} className="text-sm font-medium text-slate-800">
          {t("threshold")}
        </label>
        <input id={ids.threshold} name="threshold" type="number" min={1} max={90} defaultValue={20} className={`${input} max-w-32`} />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t("run")}</legend>
        <div className="mt-2 space-y-2 text-sm">
          {(["now", "at", "none"] as const).map((choice) => (
            <label key={choice} className="flex items-center gap-2">
              <input type="radio" name="runChoice" value={choice} checked={run === choice} onChange={() => setRun(choice)} className="size-4 accent-brand-700" />
              {t(choice === "now" ? "runNow" : choice === "at" ? "runAt" : "runNone")}
            </label>
          ))}
        </div>
        {run === "at" && (
          <div className="mt-2">
            <label htmlFor={ids.runAt} className="text-sm font-medium text-slate-800">
              {t("runAtLabel")}
            </label>
            <input id={ids.runAt} name="runAt" type="datetime-local" className={`${input} max-w-64`} />
          </div>
        )}
      </fieldset>
      <div aria-live="polite">
        {error && (
          <p id={ids.error} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            {t(`errors.${error}` as "errors.failed")}
          </p>
        )}
      </div>
      <Button type="submit" busy={busy}>
        {busy ? t("submitting") : t("submit")}
      </Button>
    </form>
  );
}
