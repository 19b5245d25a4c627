"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { forwardRef, useId, useRef, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { checkNationalId, type NationalIdProblem } from "@/lib/fhir/browser";
import { searchPatientsAction } from "@/lib/patients/browser";
import { useSearchQuery } from "@/components/query/use-search-query";
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
 * A searchable patient picker (ARIA combobox with a listbox): type a national ID or a name,
 * move with the arrow keys, choose with Enter or a click; Escape closes the list.
 */
export const PatientPicker = forwardRef<HTMLInputElement, Props>(function PatientPicker({ value, onChange, errors, disabled }, ref) {
  const t = useTranslations("eligibility.form");
  const tp = useTranslations("patients");
  const te = useTranslations("patients.errors");
  const locale = useLocale();
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState("");
  const { results, loading } = useSearchQuery("patients", query, searchPatientsAction, (a) => a.patients);
  const [open, setOpen] = useState(false);
  const [chosen, setActive] = useState(0);
  const active = results.length ? Math.min(chosen, results.length - 1) : -1;
  const changeRef = useRef<HTMLButtonElement>(null);

  const choose = (patient: PatientSummary) => {
    onChange(patient);
    setOpen(false);
    setQuery("");
    // Keep focus in the form: on the "Change patient" button that replaces the input.
    requestAnimationFrame(() => changeRef.current?.focus());
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(results.length - 1, i + 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === "Enter") {
      if (open && active >= 0 && results[active]) {
        event.preventDefault();
        choose(results[active]);
      } else if (query.trim()) {
        event.preventDefault();
      }
    } else if (event.key === "Escape") {
      setOpen(false);
    }
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

  const showList = open && query.trim().length > 0;
  const problem = idProblem(query);
  return (
    <div className="relative">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {t("patient")}
      </label>
      <input
        ref={ref}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        disabled={disabled}
        value={query}
        placeholder={t("patientPlaceholder")}
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, true, errors)}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
        className={`${inputClasses(!!errors?.length)} text-base`}
      />
      <FieldMessages id={id} hint={t("patientHint")} errors={errors} />
      <ul
        id={listId}
        role="listbox"
        aria-label={t("patient")}
        hidden={!showList}
        className="absolute inset-x-0 top-[4.25rem] z-20 max-h-80 overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      >
        {loading && results.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">{t("searching")}</li>}
        {!loading && results.length === 0 && (
          <li className="px-3 py-2 text-sm text-slate-600" data-testid="patient-search-empty">
            {problem ? <span className="block text-red-800" data-testid="patient-search-id-problem">{te(ID_PROBLEM_KEYS[problem])}</span> : t("noMatch")}{" "}
            <Link href="/patients/new" className="font-medium text-brand-800 underline">
              {t("registerNew")}
            </Link>
          </li>
        )}
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
              {p.coverages.length === 0 ? tp("noCoverage") : p.coverages.map((c) => (locale === "ar" ? c.insurerNameAr : c.insurerNameEn)).join(locale === "ar" ? "، " : ", ")}
            </span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {showList && !loading ? (results.length ? t("matches", { count: results.length }) : problem ? te(ID_PROBLEM_KEYS[problem]) : t("noMatch")) : ""}
      </p>
    </div>
  );
});
