"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { Suspense, useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { PatientCoveragePicker } from "@/components/coding/patient-coverage-picker";
import { FormAlert, SelectField } from "@/components/patients/form-controls";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { searchPatientsForPrescriptionAction, submitPrescriptionAction } from "@/lib/prescriptions/browser";
import type { PatientSummary } from "@/lib/patients";
import { useHydrated } from "@/components/forms/use-hydrated";
import { lazySection } from "@/components/forms/lazy-section";

// The code pickers (search as you type, the catalogue's words) are a chunk of their own, fetched just
// after the first load; disabled until then (decision 108, amended 2026-11-29).
const CodeCombobox = lazySection(() => import("@/components/coding/code-combobox").then((m) => m.CodeCombobox));

const FREQUENCIES = ["1/d", "2/d", "3/d", "4/d", "1/wk"] as const;
const ABSENCE_REASONS = ["no-scientific-code", "brand-required", "combination-product"] as const;

interface Line {
  by: "scientific" | "gtin";
  code: string;
  absenceReason: string;
  strength: string;
  doseValue: string;
  doseUnit: string;
  frequency: string;
  durationDays: string;
  refills: string;
  quantity: string;
}

interface Values {
  coverageId: string;
  prescriberId: string;
  diagnosis: string;
  lines: Line[];
}

const emptyLine = (): Line => ({ by: "scientific", code: "", absenceReason: "", strength: "", doseValue: "1", doseUnit: "", frequency: "1/d", durationDays: "7", refills: "0", quantity: "1" });

/**
 * The prescriber's form (docs/decisions/116): patient and coverage, prescriber, diagnosis and one
 * row per medicine — by scientific code or GTIN (then why no scientific code), strength, dose,
 * frequency, duration, refills, packs. The server checks everything and answers field errors in words.
 */
export function PrescriptionForm({ prescribers }: { prescribers: { id: string; name: string; license: string }[] }) {
  const t = useTranslations("prescriptions");
  const router = useRouter();
  const [patient, setPatient] = useState<PatientSummary | undefined>();
  const [errors, setErrors] = useState<Partial<Record<string, string[]>>>({});
  const [failed, setFailed] = useState(false);
  const { register, control, handleSubmit, setValue, formState } = useForm<Values>({
    defaultValues: { coverageId: "", prescriberId: prescribers.length === 1 ? prescribers[0]!.id : "", diagnosis: "", lines: [emptyLine()] },
  });
  const { fields, append, remove } = useFieldArray({ control, name: "lines" });
  const hydrated = useHydrated();
  const lines = useWatch({ control, name: "lines" });
  const coverageId = useWatch({ control, name: "coverageId" });
  const diagnosis = useWatch({ control, name: "diagnosis" });
  const words = (key: string) => (errors[key] ?? []).map((e) => (e.startsWith("scrub:") ? t("errors.scrub", { code: e.slice(6) }) : t.has(`errors.${e}`) ? t(`errors.${e}`) : e));

  const onSubmit = handleSubmit(async (values) => {
    setFailed(false);
    const result = await submitPrescriptionAction({
      patientId: patient?.id ?? "",
      coverageId: values.coverageId,
      prescriberId: values.prescriberId,
      diagnoses: values.diagnosis ? [values.diagnosis] : [],
      lines: values.lines,
    }).catch(() => undefined);
    if (result?.ok) {
      router.push(`/prescriptions/${result.id}`);
      return;
    }
    if (result && result.error === "invalid" && "fieldErrors" in result) {
      setErrors(result.fieldErrors as Partial<Record<string, string[]>>);
      return;
    }
    setFailed(true);
  });

  const hasErrors = Object.keys(errors).length > 0;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" data-testid="prescription-form">
      {hasErrors && <FormAlert>{words("form").length > 0 ? words("form").join(" ") : t("errors.form")}</FormAlert>}
      {failed && <FormAlert>{t("errors.failed")}</FormAlert>}
      <Card>
        <div className="space-y-4 p-4">
          <PatientCoveragePicker
            patient={patient}
            coverageId={coverageId}
            onPatient={setPatient}
            onCoverage={(id) => setValue("coverageId", id)}
            patientErrors={words("patientId")}
            coverageErrors={words("coverageId")}
            searchAction={searchPatientsForPrescriptionAction}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField label={t("form.prescriber")} errors={words("prescriberId")} {...register("prescriberId")}>
              <option value="">{t("form.prescriberPlaceholder")}</option>
              {prescribers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} · {p.license}
                </option>
              ))}
            </SelectField>
            <Suspense fallback={<div className="min-h-16" aria-busy="true" />}>
              <CodeCombobox system="icd-10-am" label={t("form.diagnosis")} value={diagnosis} onChange={(code) => setValue("diagnosis", code)} errors={words("diagnoses.0").length ? words("diagnoses.0") : words("diagnoses")} testId="prescription-diagnosis" />
            </Suspense>
          </div>
        </div>
      </Card>
      <fieldset disabled={!hydrated} className="space-y-4">
        <legend className="text-base font-semibold text-slate-900">{t("form.medicines")}</legend>
        {words("lines").length > 0 && <FormAlert>{words("lines").join(" ")}</FormAlert>}
        {fields.map((field, i) => {
          const line = lines[i] ?? field;
          const at = (name: keyof Line) => words(`lines.${i}.${name}`);
          return (
            <Card key={field.id}>
              <fieldset className="grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-4" data-testid={`prescription-line-${i}`}>
                <legend className="sr-only">{t("form.line", { n: i + 1 })}</legend>
                <SelectField
                  label={t("form.by")}
                  {...register(`lines.${i}.by`, {
                    onChange: () => {
                      setValue(`lines.${i}.code`, "");
                      setValue(`lines.${i}.absenceReason`, "");
                    },
                  })}
                >
                  <option value="scientific">{t("form.byScientific")}</option>
                  <option value="gtin">{t("form.byGtin")}</option>
                </SelectField>
                <div className="sm:col-span-2 lg:col-span-3">
                  <Suspense fallback={<div className="min-h-16" aria-busy="true" />}>
                    <CodeCombobox
                      key={line.by}
                      system={line.by === "gtin" ? "medication-codes" : "scientific-codes"}
                      label={t("form.medicine")}
                      value={line.code}
                      onChange={(code) => setValue(`lines.${i}.code`, code)}
                      errors={at("code")}
                      testId={`prescription-medicine-${i}`}
                    />
                  </Suspense>
                </div>
                {line.by === "gtin" && (
                  <SelectField label={t("form.absenceReason")} errors={at("absenceReason")} className="sm:col-span-2" {...register(`lines.${i}.absenceReason`)}>
                    <option value="">{t("form.absencePlaceholder")}</option>
                    {ABSENCE_REASONS.map((r) => (
                      <option key={r} value={r}>
                        {t(`absenceReasons.${r}`)}
                      </option>
                    ))}
                  </SelectField>
                )}
                <TextField label={t("form.strength")} hint={t("form.strengthHint")} errors={at("strength")} {...register(`lines.${i}.strength`)} />
                <TextField label={t("form.doseValue")} inputMode="decimal" errors={at("doseValue")} {...register(`lines.${i}.doseValue`)} />
                <TextField label={t("form.doseUnit")} hint={t("form.doseUnitHint")} errors={at("doseUnit")} {...register(`lines.${i}.doseUnit`)} />
                <SelectField label={t("form.frequency")} errors={at("frequency")} {...register(`lines.${i}.frequency`)}>
                  {FREQUENCIES.map((f) => (
                    <option key={f} value={f}>
                      {t(`frequencies.${f}`)}
                    </option>
                  ))}
                </SelectField>
                <TextField label={t("form.durationDays")} inputMode="numeric" errors={at("durationDays")} {...register(`lines.${i}.durationDays`)} />
                <TextField label={t("form.refills")} hint={t("form.refillsHint")} inputMode="numeric" errors={at("refills")} {...register(`lines.${i}.refills`)} />
                <TextField label={t("form.quantity")} inputMode="numeric" errors={at("quantity")} {...register(`lines.${i}.quantity`)} />
                {fields.length > 1 && (
                  <div className="flex items-end">
                    <Button type="button" variant="ghost" onClick={() => remove(i)}>
                      {t("form.removeLine", { n: i + 1 })}
                    </Button>
                  </div>
                )}
              </fieldset>
            </Card>
          );
        })}
        {fields.length < 10 && (
          <Button type="button" variant="secondary" onClick={() => append(emptyLine())}>
            {t("form.addLine")}
          </Button>
        )}
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" busy={formState.isSubmitting} disabled={!hydrated}>
          {formState.isSubmitting ? t("form.sending") : t("form.submit")}
        </Button>
      </div>
    </form>
  );
}
