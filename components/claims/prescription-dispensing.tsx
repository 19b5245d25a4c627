"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useFieldArray, useWatch, type Control, type UseFormRegister, type UseFormSetValue } from "react-hook-form";
import { SelectField } from "@/components/patients/form-controls";
import { verifiedPrescriptionsAction } from "@/lib/prescriptions/browser";
import type { SubmissionFormInput } from "@/lib/submissions";
import type { PrescriptionView } from "@/lib/prescriptions/browser";

const REASONS = ["out-of-stock", "generic-substitute", "patient-request", "formulary"] as const;
const SUBSTITUTES = ["generic", "therapeutic", "other-strength"] as const;

/**
 * A pharmacy claim's prescription (docs/decisions/116), its own chunk loaded only for pharmacy
 * claims: the patient's verified prescriptions to pick from (Claim.prescription), and for each line
 * the pharmacist dispensed instead of the prescribed medicine, what was prescribed, why and what the
 * substitute is (the exchange's substitution extensions).
 */
export default function PrescriptionDispensing({
  control,
  register,
  setValue,
  nationalId,
  lineCount,
  errorOf,
}: {
  control: Control<SubmissionFormInput>;
  register: UseFormRegister<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  nationalId: string;
  lineCount: number;
  /** The field's error in words (the form's translator), from the form's state. */
  errorOf: (path: string) => React.ReactNode[] | undefined;
}) {
  const t = useTranslations("claims.prescription");
  const locale = useLocale();
  const nameOf = (l: PrescriptionView["lines"][number]) => (locale === "ar" ? (l.displayAr ?? l.display) : l.display) ?? l.code;
  const [options, setOptions] = useState<PrescriptionView[] | undefined>();
  const chosen = useWatch({ control, name: "prescriptionRef" });
  const substitutions = useFieldArray({ control, name: "substitutions" });
  const subs = useWatch({ control, name: "substitutions" }) ?? [];

  useEffect(() => {
    let live = true;
    void verifiedPrescriptionsAction(nationalId)
      .then((answer) => live && setOptions(answer.ok ? answer.prescriptions : []))
      .catch(() => live && setOptions([]));
    return () => {
      live = false;
    };
  }, [nationalId]);

  const prescription = options?.find((p) => p.reference === chosen);
  const words = errorOf;
  const toggle = (line: number, on: boolean) => {
    const at = subs.findIndex((s) => Number(s?.line) === line);
    if (on && at < 0) substitutions.append({ line, prescribed: "", reason: "", substitute: "" } as never);
    if (!on && at >= 0) substitutions.remove(at);
  };

  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-prescription" data-testid="prescription-dispensing">
      <h2 id="sec-prescription" className="mb-1 text-base font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="mb-4 text-sm text-slate-600">{t("intro")}</p>
      <SelectField label={t("verified")} errors={words("prescriptionRef")} data-testid="prescription-ref" {...register("prescriptionRef", { onChange: () => setValue("substitutions", []) })}>
        <option value="">{options === undefined ? t("loading") : options.length === 0 ? t("none") : t("choose")}</option>
        {(options ?? []).map((p) => (
          <option key={p.id} value={p.reference}>
            {p.reference} · {p.lines.map((l) => `${nameOf(l)} (${t("refills", { n: l.approvedRefills ?? 0 })})`).join(", ")} · {t("refillsLeft", { n: Math.max(0, Math.max(0, ...p.lines.map((l) => l.approvedRefills ?? 0)) - p.dispensed) })}
          </option>
        ))}
      </SelectField>
      {prescription && (
        <fieldset className="mt-4 space-y-3">
          <legend className="text-sm font-medium text-slate-800">{t("substitutions")}</legend>
          {Array.from({ length: lineCount }, (_, line) => {
            const at = subs.findIndex((s) => Number(s?.line) === line);
            return (
              <div key={line} className="rounded-md border border-slate-200 p-3">
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={at >= 0} onChange={(e) => toggle(line, e.target.checked)} data-testid={`substituted-${line}`} />
                  {t("substituted", { n: line + 1 })}
                </label>
                {at >= 0 && (
                  <div className="mt-3 grid gap-3 sm:grid-cols-3">
                    <SelectField label={t("prescribed")} errors={words(`substitutions.${at}.prescribed`)} {...register(`substitutions.${at}.prescribed`)}>
                      <option value="">{t("choose")}</option>
                      {prescription.lines.map((l) => (
                        <option key={l.sequence} value={`${l.system}|${l.code}`}>
                          {nameOf(l)}
                        </option>
                      ))}
                    </SelectField>
                    <SelectField label={t("reason")} errors={words(`substitutions.${at}.reason`)} {...register(`substitutions.${at}.reason`)}>
                      <option value="">{t("choose")}</option>
                      {REASONS.map((r) => (
                        <option key={r} value={r}>
                          {t(`reasons.${r}`)}
                        </option>
                      ))}
                    </SelectField>
                    <SelectField label={t("substitute")} errors={words(`substitutions.${at}.substitute`)} {...register(`substitutions.${at}.substitute`)}>
                      <option value="">{t("choose")}</option>
                      {SUBSTITUTES.map((s) => (
                        <option key={s} value={s}>
                          {t(`substitutes.${s}`)}
                        </option>
                      ))}
                    </SelectField>
                  </div>
                )}
              </div>
            );
          })}
        </fieldset>
      )}
    </section>
  );
}
