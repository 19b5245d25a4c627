"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { saveInsurerAction } from "@/lib/deadlines/browser";

export interface InsurerFormValues {
  id: string;
  nameEn: string;
  nameAr: string;
  license: string;
  active: boolean;
  submissionDays: number;
  resubmissionDays: number;
}

const ERROR_KEYS = new Set(["idInvalid", "required", "licenseInvalid", "daysInvalid"]);

/** Administrators: add or edit one insurer (names in both languages, platform id, licence, active, filing windows). */
export function InsurerForm({ initial, isNew }: { initial: InsurerFormValues; isNew: boolean }) {
  const t = useTranslations("insurers");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [errors, setErrors] = useState<Partial<Record<string, string[]>>>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string }>();
  const words = (keys: string[] | undefined) => keys?.map((k) => t(`errors.${ERROR_KEYS.has(k) ? k : "invalid"}` as "errors.invalid"));

  const submit = (form: FormData) =>
    start(async () => {
      setMessage(undefined);
      const result = await saveInsurerAction({
        id: isNew ? String(form.get("id") ?? "") : initial.id,
        nameEn: String(form.get("nameEn") ?? ""),
        nameAr: String(form.get("nameAr") ?? ""),
        license: String(form.get("license") ?? ""),
        active: form.get("active") === "on",
        submissionDays: String(form.get("submissionDays") ?? ""),
        resubmissionDays: String(form.get("resubmissionDays") ?? ""),
      });
      if (result.ok) {
        setErrors({});
        setMessage({ tone: "ok", text: result.created ? t("created") : t("saved") });
        router.refresh();
      } else {
        setErrors(result.fieldErrors ?? {});
        setMessage({ tone: "error", text: result.error === "invalid" ? t("errors.invalid") : t("errors.failed") });
      }
    });

  return (
    <form
      onSubmit={(event) => {
        // Not `action`: React resets an action form's fields, losing what the administrator typed when the input is refused.
        event.preventDefault();
        submit(new FormData(event.currentTarget));
      }}
      noValidate className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid={isNew ? "insurer-new" : `insurer-form-${initial.id}`} aria-busy={pending || undefined}>
      <TextField name="id" label={t("columns.id")} defaultValue={initial.id} readOnly={!isNew} errors={words(errors.id)} dir="ltr" required />
      <TextField name="nameEn" label={t("columns.nameEn")} defaultValue={initial.nameEn} errors={words(errors.nameEn)} dir="ltr" lang="en" required />
      <TextField name="nameAr" label={t("columns.nameAr")} defaultValue={initial.nameAr} errors={words(errors.nameAr)} dir="rtl" lang="ar" required />
      <TextField name="license" label={t("columns.license")} defaultValue={initial.license} errors={words(errors.license)} dir="ltr" />
      <TextField name="submissionDays" type="number" min={1} max={3650} label={t("columns.submissionDays")} defaultValue={initial.submissionDays} errors={words(errors.submissionDays)} required />
      <TextField name="resubmissionDays" type="number" min={1} max={3650} label={t("columns.resubmissionDays")} defaultValue={initial.resubmissionDays} errors={words(errors.resubmissionDays)} required />
      <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium text-slate-800">
        <input type="checkbox" name="active" defaultChecked={initial.active} className="size-4" />
        {t("columns.active")}
      </label>
      <div className="flex items-end gap-3 pb-1">
        <Button type="submit" busy={pending} data-testid="insurer-save">
          {isNew ? t("add") : t("save")}
        </Button>
        <p role="status" aria-live="polite" className={`text-sm ${message?.tone === "error" ? "text-red-800" : "text-emerald-800"}`}>
          {message?.text}
        </p>
      </div>
    </form>
  );
}
