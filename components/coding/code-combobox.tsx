"use client";

import { useLocale, useTranslations } from "next-intl";
import { forwardRef, useId, useMemo, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { findCode, searchTerminology } from "@/lib/fhir/browser";
import type { TerminologyKind } from "@/lib/fhir";

interface Props {
  kind: TerminologyKind;
  label: string;
  /** Hide the label visually (e.g. inside a table row); it still names the control. */
  labelHidden?: boolean;
  value: string;
  onChange: (code: string) => void;
  errors?: React.ReactNode[];
  hint?: string;
  disabled?: boolean;
  /** Clear the text after a choice (multi pickers add the code elsewhere). */
  clearOnSelect?: boolean;
  /** Codes already chosen elsewhere, left out of the list. */
  exclude?: readonly string[];
  name?: string;
  testId?: string;
}

/**
 * An accessible combobox over a curated code list (CPT or ICD-10-AM): type a code ("m545",
 * "M54.5") or words in English or Arabic; ↑/↓ move, Enter chooses, Escape closes; the active option
 * is announced through aria-activedescendant.
 */
export const CodeCombobox = forwardRef<HTMLInputElement, Props>(function CodeCombobox(
  { kind, label, labelHidden, value, onChange, errors, hint, disabled, clearOnSelect, exclude, name, testId },
  ref,
) {
  const t = useTranslations("coding");
  const locale = useLocale() === "ar" ? "ar" : "en";
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const results = useMemo(() => searchTerminology(kind, query, 30).filter((e) => !exclude?.includes(e.code)), [kind, query, exclude]);
  const selected = value ? findCode(kind, value) : undefined;
  const shown = editing ? query : selected ? `${selected.code} — ${selected.display[locale]}` : value;

  const choose = (code: string) => {
    onChange(code);
    setOpen(false);
    setEditing(false);
    setQuery("");
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setEditing(true);
        setActive(0);
      } else setActive((i) => Math.min(results.length - 1, i + 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === "Enter") {
      if (open && results[active]) {
        event.preventDefault();
        choose(results[active].code);
      } else if (editing) event.preventDefault();
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setEditing(false);
        setQuery("");
      }
    }
  };

  const showList = open && !disabled;
  return (
    <div className="relative">
      <label htmlFor={id} className={labelHidden ? "sr-only" : "block text-sm font-medium text-slate-800"}>
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        name={name}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        value={shown}
        placeholder={t("searchPlaceholder")}
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && results[active] ? `${listId}-${active}` : undefined}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        data-testid={testId}
        onChange={(e) => {
          setQuery(e.target.value);
          setEditing(true);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(e) => {
          if (!value || clearOnSelect) {
            setEditing(true);
            setOpen(true);
          }
          e.currentTarget.select();
        }}
        onBlur={() =>
          setTimeout(() => {
            setOpen(false);
            setEditing(false);
            setQuery("");
          }, 150)
        }
        onClick={() => {
          setEditing(true);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        className={`${inputClasses(!!errors?.length)} ${labelHidden ? "mt-0" : ""}`}
      />
      <FieldMessages id={id} hint={hint} errors={errors} />
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!showList}
        className="absolute inset-x-0 z-30 mt-1 max-h-72 min-w-[18rem] overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      >
        {results.length === 0 && <li className="px-3 py-2 text-sm text-slate-600">{t("noMatch")}</li>}
        {results.map((entry, i) => (
          <li
            key={entry.code}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(entry.code)}
            onMouseEnter={() => setActive(i)}
            className={`flex cursor-pointer gap-3 px-3 py-1.5 text-sm ${i === active ? "bg-brand-50" : ""}`}
          >
            <span dir="ltr" className="w-16 shrink-0 font-mono font-semibold text-slate-900">
              {entry.code}
            </span>
            <span className="text-slate-700">{entry.display[locale]}</span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {showList ? (results.length ? t("matches", { count: results.length }) : t("noMatch")) : ""}
      </p>
    </div>
  );
});
