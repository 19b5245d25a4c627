"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { searchPatientsForFormAction } from "@/lib/authorizations/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
import { Combobox } from "@/components/ui/combobox";
import { ChosenPatient, PatientOption } from "@/components/patients/chosen-patient";
import type { PatientSummary } from "@/lib/patients";
import { dayAfterExpiry, dayAsDate } from "@/lib/patients/browser";

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
  serviceDays = [],
  searchAction = searchPatientsForFormAction,
}: {
  /** The lines' service dates: a chosen card that expired before one is warned of (decision 126). */
  serviceDays?: readonly (string | undefined)[];
  /** The search the picker asks (the forms' own; a prescriber's page passes theirs). */
  searchAction?: typeof searchPatientsForFormAction;
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
  const format = useFormatter();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const [query, setQuery] = useState("");
  const { results, loading } = useSearchQuery(searchAction === searchPatientsForFormAction ? "patients-for-forms" : "patients-for-prescriptions", query, searchAction, (a) => a.patients);

  const choose = (p: PatientSummary) => {
    onPatient(p);
    onCoverage(p.coverages.length === 1 ? p.coverages[0]!.id : "");
    setQuery("");
    requestAnimationFrame(() => changeRef.current?.focus());
  };

  const insurerName = (c: PatientSummary["coverages"][number]) => (locale === "ar" ? c.insurerNameAr : c.insurerNameEn);
  const coverageSelectId = `${id}-coverage`;
  // Decision 126: a warning in words, not a refusal — the insurer decides on an expired card.
  const chosenExpiry = patient?.coverages.find((c) => c.id === coverageId)?.expiresOn;
  const lateDay = dayAfterExpiry(chosenExpiry, serviceDays);
  const day = (d: string) => format.dateTime(dayAsDate(d), { dateStyle: "medium", timeZone: "UTC" });
  const expiredHint = lateDay && chosenExpiry ? t("cardExpired", { date: day(chosenExpiry), service: day(lateDay) }) : undefined;

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
            aria-describedby={describedBy(coverageSelectId, patient.coverages.length === 0 || !!expiredHint, coverageErrors)}
            className={inputClasses(!!coverageErrors?.length)}
          >
            <option value="">{t("coveragePlaceholder")}</option>
            {patient.coverages.map((c) => (
              <option key={c.id} value={c.id}>
                {insurerName(c)} · {c.memberId}
                {c.ofMother && ` — ${t("mothersCoverage")}`}
              </option>
            ))}
          </select>
          <FieldMessages
            id={coverageSelectId}
            hint={
              patient.coverages.length === 0 ? (
                t("noCoverage")
              ) : expiredHint ? (
                <span className="font-medium text-amber-800" data-testid="card-expired">
                  ⚠ {expiredHint}
                </span>
              ) : undefined
            }
            errors={coverageErrors}
          />
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
