"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { forwardRef, useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { checkNationalId, type NationalIdProblem } from "@/lib/fhir/browser";
import { searchPatientsAction } from "@/lib/patients/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
import { Combobox } from "@/components/ui/combobox";
import type { PatientSummary } from "@/lib/patients";

const ID_PROBLEM_KEYS: Record<NationalIdProblem, string> = {
  empty: "nationalIdEmpty",
  "non-digit": "nationalIdNonDigit",
  length: "nationalIdLength",
  "first-digit": "nationalIdFirstDigit",
  "check-digit": "nationalIdCheckDigit",
};

/**
 * Why a typed number cannot be a national ID (as registration says it), for a query that is meant
 * to be one: digits only, at least 10 of them. A name or a shorter number is just a search.
 */
function idProblem(query: string): NationalIdProblem | undefined {
  const q = query.trim();
  if (!/^\d{10,}$/.test(q)) return undefined;
  const result = checkNationalId(q, { allowSandboxTestIds: true });
  return result.valid ? undefined : result.problem;
}

interface Props {
  value: PatientSummary | undefined;
  onChange: (patient: PatientSummary | undefined) => void;
  errors?: React.ReactNode[];
  disabled?: boolean;
}

/**
 * A searchable patient picker on the shared combobox (components/ui/combobox.tsx, decision 087):
 * type a national ID or a name, move with the arrow keys, choose with Enter or a click.
 */
export const PatientPicker = forwardRef<HTMLInputElement, Props>(function PatientPicker({ value, onChange, errors, disabled }, ref) {
  const t = useTranslations("eligibility.form");
  const tp = useTranslations("patients");
  const te = useTranslations("patients.errors");
  const locale = useLocale();
  const id = useId();
  const [query, setQuery] = useState("");
  const { results, loading } = useSearchQuery("patients", query, searchPatientsAction, (a) => a.patients);
  const changeRef = useRef<HTMLButtonElement>(null);

  const choose = (patient: PatientSummary) => {
    onChange(patient);
    setQuery("");
    // Keep focus in the form: on the "Change patient" button that replaces the input.
    requestAnimationFrame(() => changeRef.current?.focus());
  };

  if (value) {
    return (
      <div>
        <p className="block text-sm font-medium text-slate-800" id={`${id}-label`}>
          {t("patient")}
        </p>
        <div className="mt-1 flex flex-wrap items-center justify-between gap-3 rounded-md border border-brand-600/40 bg-brand-50 px-3 py-2" aria-labelledby={`${id}-label`} role="group">
          <div>
            <p className="font-semibold text-slate-900" data-testid="selected-patient">
              {value.givenName} {value.familyName}
            </p>
            <p className="text-sm text-slate-600">
              <span dir="ltr" className="font-mono">
                {value.nationalId}
              </span>
            </p>
          </div>
          <button
            ref={changeRef}
            type="button"
            disabled={disabled}
            onClick={() => {
              onChange(undefined);
              requestAnimationFrame(() => (ref && typeof ref !== "function" ? ref.current?.focus() : undefined));
            }}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {t("change")}
          </button>
        </div>
        <FieldMessages id={id} errors={errors} />
      </div>
    );
  }

  const problem = idProblem(query);
  return (
    <Combobox<PatientSummary>
      ref={ref}
      id={id}
      label={t("patient")}
      query={query}
      onQueryChange={setQuery}
      options={results}
      optionKey={(p) => p.id}
      onSelect={choose}
      loading={loading}
      loadingText={t("searching")}
      empty={
        <span data-testid="patient-search-empty">
          {problem ? <span className="block text-red-800" data-testid="patient-search-id-problem">{te(ID_PROBLEM_KEYS[problem])}</span> : t("noMatch")}{" "}
          <Link href="/patients/new" className="font-medium text-brand-800 underline">
            {t("registerNew")}
          </Link>
        </span>
      }
      announce={(n) => (n ? t("matches", { count: n }) : problem ? te(ID_PROBLEM_KEYS[problem]) : t("noMatch"))}
      placeholder={t("patientPlaceholder")}
      disabled={disabled}
      invalid={!!errors?.length}
      describedBy={describedBy(id, true, errors)}
      messages={<FieldMessages id={id} hint={t("patientHint")} errors={errors} />}
      testId="patient-search"
      inputClassName={`${inputClasses(!!errors?.length)} text-base`}
      renderOption={(p) => (
        <>
          <span className="block font-medium text-slate-900">
            {p.givenName} {p.familyName}
          </span>
          <span className="block text-xs text-slate-600">
            <span dir="ltr" className="font-mono">
              {p.nationalId}
            </span>
            {" · "}
            {p.coverages.length === 0 ? tp("noCoverage") : p.coverages.map((c) => (locale === "ar" ? c.insurerNameAr : c.insurerNameEn)).join(locale === "ar" ? "، " : ", ")}
          </span>
        </>
      )}
    />
  );
});
