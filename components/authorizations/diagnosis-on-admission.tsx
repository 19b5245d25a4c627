"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo } from "react";
import { useWatch, type Control, type FieldErrors, type UseFormSetValue } from "react-hook-form";
import { FieldMessages, SelectField, describedBy } from "@/components/patients/form-controls";
import { DIAGNOSIS_ON_ADMISSION_CODES, type DiagnosisOnAdmission } from "@/lib/fhir/browser";
import type { SubmissionFormInput } from "@/lib/submissions";

type Translate = (key: string | undefined) => React.ReactNode[] | undefined;
const message = (e: unknown): string | undefined => (e as { message?: string } | undefined)?.message;

/**
 * An inpatient stay's diagnoses (BV-00027): for each, whether it was present on admission — yes,
 * no or unknown, kept by diagnosis code. A diagnosis added while the setting is inpatient starts at
 * "yes" (a condition the patient was admitted with, the usual case; staff answer "no" for what
 * arose during the stay). The form renders it (a chunk of its own) only for a setting that asks
 * (requiresOnAdmission).
 */
export default function DiagnosisOnAdmissionFields({
  control,
  setValue,
  errors,
  translateError: tr,
}: {
  control: Control<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  errors: FieldErrors<SubmissionFormInput>;
  translateError: Translate;
}) {
  const t = useTranslations("careSetting");
  const id = useId();
  const diagnoses = useWatch({ control, name: "diagnoses" });
  const answers = useWatch({ control, name: "onAdmission" });
  const codes = useMemo(() => diagnoses ?? [], [diagnoses]);

  useEffect(() => {
    const current = answers ?? {};
    const missing = codes.filter((code) => !Object.hasOwn(current, code));
    if (missing.length > 0) setValue("onAdmission", { ...current, ...Object.fromEntries(missing.map((code) => [code, "y" as const])) });
  }, [codes, answers, setValue]);

  if (codes.length === 0) return null;
  const errs = tr(message(errors.onAdmission));
  return (
    <fieldset className="lg:col-span-2" aria-describedby={describedBy(id, t("onAdmissionHint"), errs)} data-testid="on-admission">
      <legend className="text-sm font-medium text-slate-800">{t("onAdmission")}</legend>
      <ul className="mt-2 grid gap-3 sm:grid-cols-2">
        {codes.map((code, i) => (
          <li key={code}>
            <SelectField
              label={t("onAdmissionOf", { code })}
              value={answers?.[code] ?? ""}
              onChange={(e) => setValue("onAdmission", { ...(answers ?? {}), [code]: e.target.value as DiagnosisOnAdmission }, { shouldValidate: !!errors.onAdmission })}
              data-testid={`on-admission-${i}`}
            >
              {DIAGNOSIS_ON_ADMISSION_CODES.map((c) => (
                <option key={c} value={c}>
                  {t(`onAdmissionCodes.${c}`)}
                </option>
              ))}
            </SelectField>
          </li>
        ))}
      </ul>
      <FieldMessages id={id} hint={t("onAdmissionHint")} errors={errs} />
    </fieldset>
  );
}

