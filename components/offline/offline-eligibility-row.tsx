"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { changeOfflineEligibilityAction } from "@/lib/eligibility/browser";
import { useHydrated } from "@/components/forms/use-hydrated";

/**
 * One recorded offline eligibility with **Correct** and **Remove** (decision 120): for one the desk
 * recorded by mistake, while no claim carries it — the server refuses otherwise, in words.
 */
export function OfflineEligibilityActions({ id, patientId, reference, givenOn, today }: { id: string; patientId: string; reference: string; givenOn: string; today: string }) {
  const t = useTranslations("patients");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [editing, setEditing] = useState(false);
  const hydrated = useHydrated();
  const [values, setValues] = useState({ reference, givenOn });
  const [error, setError] = useState<{ field?: "reference" | "givenOn"; key: string }>();

  const run = (input: Parameters<typeof changeOfflineEligibilityAction>[0]) =>
    startTransition(async () => {
      setError(undefined);
      let result;
      try {
        result = await changeOfflineEligibilityAction(input);
      } catch {
        setError({ key: "failed" });
        return;
      }
      if (result.ok) {
        setEditing(false);
        router.refresh();
        return;
      }
      const fields = result.error === "invalid" ? (result.fieldErrors ?? {}) : {};
      const [field, messages] = Object.entries(fields).find(([, m]) => m?.length) ?? [];
      setError(field === "reference" || field === "givenOn" ? { field, key: messages![0]! } : { key: messages?.[0] ?? (result.error === "forbidden" || result.error === "unauthorized" ? "forbidden" : "failed") });
    });
  const words = (key: string) => (t.has(`errors.${key}` as "errors.failed") ? t(`errors.${key}` as "errors.failed") : t("errors.failed"));

  return (
    <div className="mt-1" data-testid="offline-eligibility-actions">
      {editing ? (
        <div className="grid gap-3 sm:grid-cols-3 sm:items-end">
          <TextField label={t("offline.reference")} dir="ltr" autoComplete="off" value={values.reference} onChange={(e) => setValues((v) => ({ ...v, reference: e.target.value }))} errors={error?.field === "reference" ? [words(error.key)] : undefined} />
          <TextField label={t("offline.givenOn")} type="date" max={today} value={values.givenOn} onChange={(e) => setValues((v) => ({ ...v, givenOn: e.target.value }))} errors={error?.field === "givenOn" ? [words(error.key)] : undefined} />
          <div className="flex gap-2">
            <Button type="button" variant="secondary" busy={pending} onClick={() => run({ action: "correct", id, patientId, ...values })}>
              {t("offline.save")}
            </Button>
            <Button type="button" variant="ghost" disabled={pending} onClick={() => { setEditing(false); setValues({ reference, givenOn }); setError(undefined); }}>
              {t("offline.cancel")}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-3 text-sm">
          <button type="button" className="font-medium text-brand-800 underline underline-offset-2" disabled={pending || !hydrated} onClick={() => setEditing(true)}>
            {t("offline.correct")}
          </button>
          <button
            type="button"
            className="font-medium text-red-800 underline underline-offset-2"
            disabled={pending || !hydrated}
            onClick={() => {
              if (window.confirm(t("offline.removeConfirm"))) run({ action: "remove", id, patientId });
            }}
          >
            {t("offline.remove")}
          </button>
        </div>
      )}
      {error && !error.field && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {words(error.key)}
        </p>
      )}
    </div>
  );
}
