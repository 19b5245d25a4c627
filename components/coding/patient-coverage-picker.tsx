"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { searchPatientsForFormAction } from "@/lib/authorizations/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
import { Combobox } from "@/components/ui/combobox";
import { ChosenPatient, PatientOption } from "@/components/patients/chosen-patient";
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
        <ChosenPatient
          ref={changeRef}
          patient={patient}
          label={t("label")}
          changeLabel={t("change")}
          disabled={disabled}
          errors={patientErrors}
          onChange={() => {
            onPatient(undefined);
            onCoverage("");
            requestAnimationFrame(() => inputRef.current?.focus());
          }}
        />
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
      renderOption={(p) => <PatientOption patient={p} noCoverage={t("noCoverage")} />}
    />
  );
}
