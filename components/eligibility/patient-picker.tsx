"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { forwardRef, useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { checkNationalId, type NationalIdProblem } from "@/lib/fhir/browser";
import { searchPatientsAction } from "@/lib/patients/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
import { Combobox } from "@/components/ui/combobox";
import { ChosenPatient, PatientOption } from "@/components/patients/chosen-patient";
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
      <ChosenPatient
        ref={changeRef}
        patient={value}
        label={t("patient")}
        changeLabel={t("change")}
        disabled={disabled}
        errors={errors}
        onChange={() => {
          onChange(undefined);
          requestAnimationFrame(() => (ref && typeof ref !== "function" ? ref.current?.focus() : undefined));
        }}
      />
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
      renderOption={(p) => <PatientOption patient={p} noCoverage={tp("noCoverage")} />}
    />
  );
});
