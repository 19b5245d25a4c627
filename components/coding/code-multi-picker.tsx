"use client";

import { useLocale, useTranslations } from "next-intl";
import { CodeCombobox, useCodeWords } from "./code-combobox";

/**
 * An ordered list of codes of one catalogue system (diagnoses, procedures): chosen codes as
 * removable chips in sequence order (sequence 1 is the principal one), and the code picker to add more.
 */
export function CodeMultiPicker({
  system,
  label,
  hint,
  value,
  onChange,
  errors,
  disabled,
  testId,
}: {
  /** The catalogue system (key or URL, e.g. "icd-10-am"). */
  system: string;
  label: string;
  hint?: string;
  value: readonly string[];
  onChange: (codes: string[]) => void;
  errors?: React.ReactNode[];
  disabled?: boolean;
  testId?: string;
}) {
  const t = useTranslations("coding");
  const locale = useLocale() === "ar" ? "ar" : "en";
  const words = useCodeWords(system, value);
  return (
    // No fieldset/legend: the combobox carries the label, so it is announced once, not twice.
    <div className="min-w-0" data-testid={testId}>
      <CodeCombobox
        system={system}
        label={label}
        hint={hint}
        value=""
        clearOnSelect
        exclude={value}
        disabled={disabled}
        errors={errors}
        onChange={(code) => code && !value.includes(code) && onChange([...value, code])}
      />
      {value.length > 0 && (
        <ol className="mt-2 flex flex-wrap gap-2" aria-label={t("chosen", { label })}>
          {value.map((code, i) => {
            const hit = words.get(code);
            return (
              <li key={code} className="inline-flex items-center gap-2 rounded-full border border-brand-600/30 bg-brand-50 ps-3 pe-1 py-1 text-sm">
                <span className="text-xs text-slate-500">{i + 1}.</span>
                <span dir="ltr" className="font-mono font-semibold">
                  {code}
                </span>
                <span className="text-slate-700">{hit ? (locale === "ar" && hit.ar) || hit.en : ""}</span>
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onChange(value.filter((c) => c !== code))}
                  className="rounded-full px-2 text-slate-600 hover:bg-white hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                  aria-label={t("remove", { code })}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
