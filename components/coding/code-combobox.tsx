"use client";

import { useLocale, useTranslations } from "next-intl";
import { forwardRef, useId, useState } from "react";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { useActionAnswer } from "@/components/query/use-action-answer";
import { useSearchQuery } from "@/components/query/use-search-query";
import { Combobox } from "@/components/ui/combobox";
import { catalogueSystem, describeCodesAction, searchCodesAction, type CodeHit } from "@/lib/terminology/browser";

interface Props {
  /**
   * The catalogue system to search (key such as "icd-10-am", "services", or its URL); the value is
   * a code of it. Give `systems` instead to search several together (the value's system then
   * comes with onChange, and `valueSystem` says it when reopening).
   */
  system?: string;
  systems?: readonly string[];
  valueSystem?: string;
  label: string;
  /** Hide the label visually (e.g. inside a table row); it still names the control. */
  labelHidden?: boolean;
  value: string;
  onChange: (code: string, system?: string) => void;
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

/** The words of codes already chosen, from the catalogue (cached per system and code). */
export function useCodeWords(system: string | undefined, codes: readonly string[]): Map<string, CodeHit> {
  const wanted = [...new Set(codes.filter(Boolean))].sort();
  const query = useActionAnswer(`codes\u0000${system}\u0000${wanted.join(" ")}`, () => describeCodesAction({ system: system ?? "", codes: wanted }), {
    enabled: !!system && wanted.length > 0,
    staleMs: 5 * 60_000,
  });
  return new Map((query.data?.codes ?? []).map((c) => [c.code, c]));
}

/**
 * The code picker (docs/decisions/086, 087): the shared combobox over the catalogue — type a code
 * ("m545", "M54.5") or words in English or Arabic; the server searches the clinic's imported codes
 * (or the demo catalogue) and answers the best first.
 */
export const CodeCombobox = forwardRef<HTMLInputElement, Props>(function CodeCombobox(
  { system, systems, valueSystem, label, labelHidden, value, onChange, errors, hint, disabled, clearOnSelect, exclude, name, testId },
  ref,
) {
  const t = useTranslations("coding");
  const locale = useLocale() === "ar" ? "ar" : "en";
  const searched = systems ?? (system ? [system] : []);
  const [query, setQuery] = useState("");
  const [picked, setPicked] = useState<CodeHit | undefined>(undefined);
  const { results, loading } = useSearchQuery(`codes:${searched.join(" ")}`, query, (q) => searchCodesAction({ systems: [...searched], q }), (a) => a.codes, 120);
  // Options only for what is typed now: a stale answer never sits under Enter.
  const options = loading ? [] : results.filter((h) => !exclude?.includes(h.code));
  const ownSystem = valueSystem ?? system ?? searched[0];
  const known = useCodeWords(picked?.code === value ? undefined : ownSystem, clearOnSelect || !value ? [] : [value]);
  const selected = picked?.code === value ? picked : known.get(value);
  const several = searched.length > 1;
  const id = useId();

  return (
    <Combobox<CodeHit>
      ref={ref}
      id={id}
      label={label}
      labelHidden={labelHidden}
      query={query}
      onQueryChange={setQuery}
      options={options}
      optionKey={(h) => `${h.system}|${h.code}`}
      onSelect={(h) => {
        setPicked(clearOnSelect ? undefined : h);
        onChange(h.code, h.system);
      }}
      displayValue={clearOnSelect ? undefined : value ? (selected ? `${selected.code} — ${(locale === "ar" && selected.ar) || selected.en}` : value) : ""}
      loading={loading}
      loadingText={t("searching")}
      empty={t("noMatch")}
      announce={(n) => (n ? t("matches", { count: n }) : t("noMatch"))}
      placeholder={t("searchPlaceholder")}
      disabled={disabled}
      invalid={!!errors?.length}
      describedBy={describedBy(id, hint, errors)}
      messages={<FieldMessages id={id} hint={hint} errors={errors} />}
      name={name}
      testId={testId}
      inputClassName={`${inputClasses(!!errors?.length)} ${labelHidden ? "mt-0" : ""}`}
      listClassName="min-w-[18rem]"
      renderOption={(h) => (
        <span className="flex gap-3 text-sm">
          <span dir="ltr" className="min-w-16 shrink-0 font-mono font-semibold text-slate-900">
            {h.code}
          </span>
          <span className="text-slate-700">
            {(locale === "ar" && h.ar) || h.en}
            {several && <span className="block text-xs text-slate-500">{catalogueSystem(h.system)?.[locale] ?? h.system}</span>}
          </span>
        </span>
      )}
    />
  );
});
