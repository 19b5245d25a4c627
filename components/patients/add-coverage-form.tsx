"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { addCoverageAction, loadPatientFormSchemas } from "@/lib/patients/browser";
import type { AddCoverageInput } from "@/lib/patients";
import { FormAlert, SelectField } from "./form-controls";
import { useHydrated } from "@/components/forms/use-hydrated";

type Field = keyof AddCoverageInput;

const resolver = lazyZodResolver<AddCoverageInput>(() => loadPatientFormSchemas().then((m) => m.addCoverageSchema));

export function AddCoverageForm({ patientId, insurers }: { patientId: string; insurers: { id: string; nameEn: string; nameAr: string }[] }) {
  const t = useTranslations("patients");
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const [status, setStatus] = useState<"added" | "checkFields" | "unauthorized" | "forbidden" | "failed">();
  const form = useForm<AddCoverageInput>({
    resolver,
    mode: "onTouched",
    defaultValues: { patientId, insurerId: "", memberId: "", coverageRef: "", network: "", coverageClass: "", expiresOn: "" },
  });
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
          result = await addCoverageAction(values);
        } catch {
          setStatus("failed");
          return;
        }
        if (result.ok) {
          form.reset({ patientId, insurerId: "", memberId: "", coverageRef: "", network: "", coverageClass: "", expiresOn: "" });
          setStatus("added");
          router.refresh();
          return;
        }
        if (result.error === "invalid" && result.fieldErrors) {
          for (const [name, messages] of Object.entries(result.fieldErrors)) {
            if (messages?.[0]) form.setError(name as Field, { type: "server", message: messages[0] });
          }
          setStatus("checkFields");
          return;
        }
        setStatus(result.error === "invalid" ? "checkFields" : result.error === "unauthorized" ? "unauthorized" : result.error === "forbidden" ? "forbidden" : "failed");
      });
    },
    () => setStatus("checkFields"),
  );

  if (insurers.length === 0) return <p className="text-sm text-slate-600">{t("detail.noInsurers")}</p>;

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate aria-label={t("detail.addCoverage")}>
      <div aria-live="polite">
        {status === "added" && <p className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">✓ {t("detail.coverageAdded")}</p>}
        {status && status !== "added" && (
          <div className="mb-4">
            <FormAlert>{t(`errors.${status}`)}</FormAlert>
          </div>
        )}
      </div>
      <input type="hidden" {...form.register("patientId")} />
      <fieldset disabled={pending || !hydrated} className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <SelectField label={t("detail.insurer")} errors={errorsOf("insurerId")} {...form.register("insurerId")}>
          <option value="">{t("detail.chooseInsurer")}</option>
          {insurers.map((i) => (
            <option key={i.id} value={i.id}>
              {locale === "ar" ? i.nameAr : i.nameEn}
            </option>
          ))}
        </SelectField>
        <TextField label={t("detail.memberId")} autoComplete="off" dir="ltr" errors={errorsOf("memberId")} {...form.register("memberId")} />
        <TextField label={t("detail.coverageClass")} hint={t("detail.coverageClassHint")} autoComplete="off" dir="ltr" errors={errorsOf("coverageClass")} {...form.register("coverageClass")} />
        <TextField label={t("detail.network")} hint={t("detail.networkHint")} autoComplete="off" dir="ltr" errors={errorsOf("network")} {...form.register("network")} />
        {/* The card's last day (decision 126): optional, a past date kept; the forms warn of it. */}
        <TextField
          label={t("detail.cardExpiry")}
          hint={t("detail.cardExpiryHint")}
          type="date"
          min="2000-01-01"
          max="2100-12-31"
          errors={errorsOf("expiresOn")}
          data-testid="coverage-expiry"
          {...form.register("expiresOn")}
        />
        {/* On no card: asked only when known, under "More" (opened when the exchange needs it). */}
        <details className="md:col-span-3" open={Boolean(form.formState.errors.coverageRef)} data-testid="coverage-more">
          <summary className="cursor-pointer text-sm font-medium text-brand-800">{t("detail.coverageMore")}</summary>
          <div className="mt-3 max-w-md">
            <TextField
              label={t("detail.coverageRef")}
              hint={t("detail.coverageRefHint")}
              autoComplete="off"
              dir="ltr"
              errors={errorsOf("coverageRef")}
              {...form.register("coverageRef")}
            />
          </div>
        </details>
      </fieldset>
      <Button type="submit" variant="secondary" busy={pending} disabled={!hydrated} className="mt-4">
        {pending ? t("detail.savingCoverage") : t("detail.saveCoverage")}
      </Button>
    </form>
  );
}
