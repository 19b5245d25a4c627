"use client";

import { forwardRef, useId } from "react";
import { useLocale } from "next-intl";
import { FieldMessages } from "@/components/patients/form-controls";
import type { PatientSummary } from "@/lib/patients";

/**
 * The two halves every patient picker shares (eligibility, visits, authorization and claim forms):
 * the chosen patient with a "Change" button that hands focus back to the search, and one search
 * result as the combobox lists it. The pickers differ only in what they search and what follows.
 */
export const ChosenPatient = forwardRef<
  HTMLButtonElement,
  { patient: PatientSummary; label: string; changeLabel: string; onChange: () => void; errors?: React.ReactNode[]; disabled?: boolean }
>(function ChosenPatient({ patient, label, changeLabel, onChange, errors, disabled }, ref) {
  const id = useId();
  return (
    <div>
      <p className="block text-sm font-medium text-slate-800" id={`${id}-label`}>
        {label}
      </p>
      <div role="group" aria-labelledby={`${id}-label`} className="mt-1 flex flex-wrap items-center justify-between gap-3 rounded-md border border-brand-600/40 bg-brand-50 px-3 py-2">
        <div>
          <p className="font-semibold text-slate-900" data-testid="selected-patient">
            {patient.givenName} {patient.familyName}
          </p>
          <p dir="ltr" className="text-start font-mono text-sm text-slate-600">
            {patient.nationalId}
          </p>
        </div>
        <button
          ref={ref}
          type="button"
          disabled={disabled}
          onClick={onChange}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {changeLabel}
        </button>
      </div>
      <FieldMessages id={id} errors={errors} />
    </div>
  );
});

/** One patient in a search's list: name, then the identifier and the insurers (or "no coverage"). */
export function PatientOption({ patient, noCoverage }: { patient: PatientSummary; noCoverage: string }) {
  const locale = useLocale();
  return (
    <>
      <span className="block font-medium text-slate-900">
        {patient.givenName} {patient.familyName}
      </span>
      <span className="block text-xs text-slate-600">
        <span dir="ltr" className="font-mono">
          {patient.nationalId}
        </span>
        {" · "}
        {patient.coverages.length === 0 ? noCoverage : patient.coverages.map((c) => (locale === "ar" ? c.insurerNameAr : c.insurerNameEn)).join(locale === "ar" ? "، " : ", ")}
      </span>
    </>
  );
}
