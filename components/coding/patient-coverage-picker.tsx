"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { searchPatientsForFormAction } from "@/lib/authorizations/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
import type { PatientSummary } from "@/lib/patients";

/**
 * Patient (searchable by national ID or name; an accessible combobox) and then one of the
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
  const listId = `${id}-list`;
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const [query, setQuery] = useState("");
  const { results, loading } = useSearchQuery("patients-for-forms", query, searchPatientsForFormAction, (a) => a.patients);
  const [open, setOpen] = useState(false);
  const [chosen, setActive] = useState(0);
  const active = results.length ? Math.min(chosen, results.length - 1) : 0;

  const choose = (p: PatientSummary) => {
    onPatient(p);
    onCoverage(p.coverages.length === 1 ? p.coverages[0]!.id : "");
    setOpen(false);
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

  const showList = open && query.trim().length > 0;
  return (
    <div className="relative">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {t("label")}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        disabled={disabled}
        value={query}
        placeholder={t("placeholder")}
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && results[active] ? `${listId}-${active}` : undefined}
        aria-invalid={patientErrors?.length ? true : undefined}
        aria-describedby={describedBy(id, true, patientErrors)}
        data-testid="patient-search"
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(results.length - 1, i + 1));
          } else if (event.key === "ArrowUp") {
            event.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (event.key === "Enter") {
            event.preventDefault();
            if (open && results[active]) choose(results[active]);
          } else if (event.key === "Escape") {
            setOpen(false);
          }
        }}
        className={inputClasses(!!patientErrors?.length)}
      />
      <FieldMessages id={id} hint={t("hint")} errors={patientErrors} />
      <ul
        id={listId}
        role="listbox"
        aria-label={t("label")}
        hidden={!showList}
        className="absolute inset-x-0 top-[4.25rem] z-30 max-h-80 overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      >
        {loading && results.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">{t("searching")}</li>}
        {!loading && results.length === 0 && <li className="px-3 py-2 text-sm text-slate-600">{t("noMatch")}</li>}
        {results.map((p, i) => (
          <li
            key={p.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(p)}
            onMouseEnter={() => setActive(i)}
            className={`cursor-pointer px-3 py-2 ${i === active ? "bg-brand-50" : ""}`}
          >
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
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {showList && !loading ? (results.length ? t("matches", { count: results.length }) : t("noMatch")) : ""}
      </p>
    </div>
  );
}
