"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { searchPatientsForFormAction } from "@/lib/authorizations/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
import { Combobox } from "@/components/ui/combobox";
import type { PatientSummary } from "@/lib/patients";

/**
 * Patient (searchable by national ID or name; the shared combobox, decision 087) and then one of the
 * patient's coverages. Shared by the authorization and claim forms.
 */
export function PatientCoveragePicker({
  patient,
  coverageId,
  onPatient,
  onCoverage,
  patientErrors,
  coverageErrors,
  disabled,
}: {
  patient: PatientSummary | undefined;
  coverageId: string;
  onPatient: (patient: PatientSummary | undefined) => void;
  onCoverage: (coverageId: string) => void;
  patientErrors?: React.ReactNode[];
  coverageErrors?: React.ReactNode[];
  disabled?: boolean;
}) {
  const t = useTranslations("coding.patient");
  const locale = useLocale();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const [query, setQuery] = useState("");
  const { results, loading } = useSearchQuery("patients-for-forms", query, searchPatientsForFormAction, (a) => a.patients);

  const choose = (p: PatientSummary) => {
    onPatient(p);
    onCoverage(p.coverages.length === 1 ? p.coverages[0]!.id : "");
    setQuery("");
    requestAnimationFrame(() => changeRef.current?.focus());
  };

  const insurerName = (c: PatientSummary["coverages"][number]) => (locale === "ar" ? c.insurerNameAr : c.insurerNameEn);
  const coverageSelectId = `${id}-coverage`;

  if (patient) {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <p className="block text-sm font-medium text-slate-800" id={`${id}-label`}>
            {t("label")}
          </p>
          <div role="group" aria-labelledby={`${id}-label`} className="mt-1 flex items-center justify-between gap-3 rounded-md border border-brand-600/40 bg-brand-50 px-3 py-2">
            <div>
              <p className="font-semibold text-slate-900" data-testid="selected-patient">
                {patient.givenName} {patient.familyName}
              </p>
              <p dir="ltr" className="text-start font-mono text-sm text-slate-600">
                {patient.nationalId}
              </p>
            </div>
            <button
              ref={changeRef}
              type="button"
              disabled={disabled}
              onClick={() => {
                onPatient(undefined);
                onCoverage("");
                requestAnimationFrame(() => inputRef.current?.focus());
              }}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              {t("change")}
            </button>
          </div>
          <FieldMessages id={id} errors={patientErrors} />
        </div>
        <div>
          <label htmlFor={coverageSelectId} className="block text-sm font-medium text-slate-800">
            {t("coverage")}
          </label>
          <select
            id={coverageSelectId}
            value={coverageId}
            disabled={disabled}
            onChange={(e) => onCoverage(e.target.value)}
            aria-invalid={coverageErrors?.length ? true : undefined}
            aria-describedby={describedBy(coverageSelectId, patient.coverages.length === 0, coverageErrors)}
            className={inputClasses(!!coverageErrors?.length)}
          >
            <option value="">{t("coveragePlaceholder")}</option>
            {patient.coverages.map((c) => (
              <option key={c.id} value={c.id}>
                {insurerName(c)} · {c.memberId}
              </option>
            ))}
          </select>
          <FieldMessages id={coverageSelectId} hint={patient.coverages.length === 0 ? t("noCoverage") : undefined} errors={coverageErrors} />
        </div>
      </div>
    );
  }

  return (
    <Combobox<PatientSummary>
      ref={inputRef}
      id={id}
      label={t("label")}
      query={query}
      onQueryChange={setQuery}
      options={results}
      optionKey={(p) => p.id}
      onSelect={choose}
      loading={loading}
      loadingText={t("searching")}
      empty={t("noMatch")}
      announce={(n) => (n ? t("matches", { count: n }) : t("noMatch"))}
      placeholder={t("placeholder")}
      disabled={disabled}
      invalid={!!patientErrors?.length}
      describedBy={describedBy(id, true, patientErrors)}
      messages={<FieldMessages id={id} hint={t("hint")} errors={patientErrors} />}
      testId="patient-search"
      inputClassName={inputClasses(!!patientErrors?.length)}
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
            {p.coverages.length === 0 ? t("noCoverage") : p.coverages.map(insurerName).join(locale === "ar" ? "، " : ", ")}
          </span>
        </>
      )}
    />
  );
}
