"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { loadOfflineSchema, recordOfflineEligibilityAction } from "@/lib/patients/browser";
import type { RecordOfflineEligibilityInput } from "@/lib/patients";
import { FormAlert, SelectField } from "@/components/patients/form-controls";
import { useHydrated } from "@/components/forms/use-hydrated";

type Field = keyof RecordOfflineEligibilityInput;

const resolver = lazyZodResolver<RecordOfflineEligibilityInput>(() => loadOfflineSchema().then((m) => m.recordOfflineEligibilitySchema));

/**
 * The front desk records an eligibility the insurer gave while the exchange could not be reached
 * (docs/decisions/111): the coverage, the insurer's reference and the day it was given.
 */
export function RecordOfflineEligibilityForm({ patientId, coverages, today }: { patientId: string; coverages: { id: string; insurerNameEn: string; insurerNameAr: string; memberId: string; ofMother?: boolean }[]; today: string }) {
  const t = useTranslations("patients");
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const [status, setStatus] = useState<"recorded" | "checkFields" | "unauthorized" | "forbidden" | "failed">();
  const empty = { patientId, coverageId: coverages.length === 1 ? coverages[0]!.id : "", reference: "", givenOn: today };
  const form = useForm<RecordOfflineEligibilityInput>({ resolver, mode: "onTouched", defaultValues: empty });
  const errorsOf = (name: Field) => {
    const message = form.formState.errors[name]?.message;
    return message ? [t(`errors.${message}` as "errors.failed")] : undefined;
  };

  const onSubmit = form.handleSubmit(
    (values) => {
      setStatus(undefined);
      startTransition(async () => {
        let result;
        try {
          result = await recordOfflineEligibilityAction(values);
        } catch {
          setStatus("failed");
          return;
        }
        if (result.ok) {
          form.reset(empty);
          setStatus("recorded");
          router.refresh();
          return;
        }
        if (result.error === "invalid" && result.fieldErrors) {
          for (const [name, messages] of Object.entries(result.fieldErrors)) {
            if (messages?.[0]) form.setError(name as Field, { type: "server", message: messages[0] });
          }
        }
        setStatus(result.error === "invalid" ? "checkFields" : result.error === "unauthorized" ? "unauthorized" : result.error === "forbidden" ? "forbidden" : "failed");
      });
    },
    () => setStatus("checkFields"),
  );

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate aria-label={t("offline.record")} data-testid="offline-eligibility-form">
      <div aria-live="polite">
        {status === "recorded" && <p className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">✓ {t("offline.recorded")}</p>}
        {status && status !== "recorded" && (
          <div className="mb-4">
            <FormAlert>{t(`errors.${status}`)}</FormAlert>
          </div>
        )}
      </div>
      <input type="hidden" {...form.register("patientId")} />
      <fieldset disabled={pending || !hydrated} className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <SelectField label={t("offline.coverage")} errors={errorsOf("coverageId")} {...form.register("coverageId")}>
          <option value="">{t("offline.chooseCoverage")}</option>
          {coverages.map((c) => (
            <option key={c.id} value={c.id}>
              {locale === "ar" ? c.insurerNameAr : c.insurerNameEn} · {c.memberId}
              {c.ofMother && ` — ${t("newborn.mothersCoverage")}`}
            </option>
          ))}
        </SelectField>
        <TextField label={t("offline.reference")} hint={t("offline.referenceHint")} autoComplete="off" dir="ltr" errors={errorsOf("reference")} {...form.register("reference")} />
        <TextField label={t("offline.givenOn")} type="date" max={today} errors={errorsOf("givenOn")} {...form.register("givenOn")} />
      </fieldset>
      <Button type="submit" variant="secondary" busy={pending} disabled={!hydrated} className="mt-4">
        {t("offline.record")}
      </Button>
    </form>
  );
}
