"use client";

import { useLocale, useTranslations } from "next-intl";
import { Controller, useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister, type UseFormSetValue } from "react-hook-form";
import { inputClasses } from "@/components/patients/form-controls";
import { CPT_SYSTEM, defaultItemSystem, emptyItem, itemSystemsFor, lineTotalMinor, parseAmountMinor, type PlatformProtocol } from "@/lib/submissions/browser";
import type { ClaimType } from "@/lib/fhir/browser";
import type { SubmissionFormInput } from "@/lib/submissions";
import { CodeCombobox } from "./code-combobox";
import { currencySymbol } from "@/lib/money/browser";
import { formatAmount } from "./format";
import { TableFrame, theadClasses } from "@/components/ui/table-frame";

/** The last segment of a code system URL names it in the words catalogue (`services`, `oral-health-op`, CPT's `cpt`). */
const systemKey = (system: string) => (system === CPT_SYSTEM ? "cpt" : (system.split("/").at(-1) ?? system));

/**
 * The items (service lines) of an authorization request or a claim: the code list of the care
 * setting (docs/decisions/083) and the code, picked from the catalogue of that list
 * (docs/decisions/086), the tooth for dental care, date, quantity, unit
 * price and the line total — computed exactly in halalas from the typed strings — with the grand
 * total. Shared by the authorization and claim forms.
 */
export function ItemsEditor({
  control,
  register,
  setValue,
  errors,
  defaultDate,
  disabled,
  translateError,
  claimType = "professional",
  protocol = "rest",
  maternity = false,
  performed = false,
  needsAuthorization,
  authorizationGiven = false,
  contractPrices,
}: {
  /** The payer's contract price per line position (halalas), shown beside the price box (decision 123). */
  contractPrices?: ReadonlyMap<number, number>;
  claimType?: ClaimType;
  protocol?: PlatformProtocol;
  /** Each line says whether it is maternity care (the exchange's Minimum Data Set, docs/decisions/103). */
  maternity?: boolean;
  /** A change of an authorization: each line says whether the service was already provided (guide 7.3.1, Table 37). */
  performed?: boolean;
  /** Service codes the payer said need a prior authorization for this coverage (its "auth-requirements" answer). */
  needsAuthorization?: ReadonlySet<string>;
  /** The claim is made from an approved authorization: a marked line says it is covered by it. */
  authorizationGiven?: boolean;
  control: Control<SubmissionFormInput>;
  register: UseFormRegister<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  errors?: FieldErrors<SubmissionFormInput>["items"];
  defaultDate: string;
  disabled?: boolean;
  translateError: (key: string | undefined) => React.ReactNode[] | undefined;
}) {
  const t = useTranslations("coding.items");
  const tc = useTranslations("careSetting");
  const tv = useTranslations("visitDetails");
  const tver = useTranslations("authorizations.versions");
  const systems = itemSystemsFor(claimType, protocol);
  const oral = claimType === "oral";
  const locale = useLocale();
  const { fields, append, remove } = useFieldArray({ control, name: "items" });
  const items = useWatch({ control, name: "items" }) ?? [];
  // Choosing another code list clears the line's code: a code belongs to one list.
  const systemField = (i: number) => {
    const field = register(`items.${i}.system`);
    return {
      ...field,
      onChange: async (event: React.ChangeEvent<HTMLSelectElement>) => {
        await field.onChange(event);
        setValue(`items.${i}.code`, "", { shouldDirty: true });
      },
    };
  };
  const totals = items.map((i) => lineTotalMinor(i?.quantity ?? "", i?.unitPrice ?? ""));
  const grand = totals.every((x) => x !== undefined) ? totals.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;
  const rowErrors = (i: number) => (Array.isArray(errors) ? errors[i] : undefined) as
    | Partial<Record<"system" | "code" | "servicedDate" | "quantity" | "unitPrice" | "tooth", { message?: string }>>
    | undefined;
  const cell = "px-2 py-2 align-top";

  return (
    <fieldset className="min-w-0" data-testid="items-editor">
      <legend className="text-sm font-medium text-slate-800">{t("legend")}</legend>
      {/* Lines are form rows in their order (their sequence is the claim's), so the frame, not a sortable DataTable. */}
      <TableFrame label={t("legend")} className="mt-2 rounded-md border border-slate-200" maxHeight="">
        <thead className={theadClasses}>
          <tr>
            <th scope="col" className="px-2 py-2 text-start">#</th>
            <th scope="col" className="min-w-[18rem] px-2 py-2 text-start">{t("service")}</th>
            {oral && <th scope="col" className="w-20 px-2 py-2 text-start">{tc("tooth")}</th>}
            <th scope="col" className="px-2 py-2 text-start">{t("date")}</th>
            <th scope="col" className="w-24 px-2 py-2 text-start">{t("quantity")}</th>
            <th scope="col" className="w-36 px-2 py-2 text-start">{t("unitPrice", { currency: currencySymbol(locale) })}</th>
            <th scope="col" className="px-2 py-2 text-end">{t("lineTotal")}</th>
            <th scope="col" className="px-2 py-2">
              <span className="sr-only">{t("actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {fields.map((field, i) => {
            const e = rowErrors(i);
            return (
              <tr key={field.id} data-testid={`item-row-${i}`}>
                <td className={`${cell} pt-4 text-slate-500`}>{i + 1}</td>
                <td className={cell}>
                  <label className="sr-only" htmlFor={`item-${i}-system`}>
                    {tc("codeList", { n: i + 1 })}
                  </label>
                  <select
                    id={`item-${i}-system`}
                    disabled={disabled}
                    {...systemField(i)}
                    aria-invalid={e?.system ? true : undefined}
                    className={`${inputClasses(!!e?.system)} mt-0 mb-1`}
                    data-testid={`item-${i}-system`}
                  >
                    {systems.map((system) => (
                      <option key={system} value={system}>
                        {tc(`systems.${systemKey(system)}`)}
                      </option>
                    ))}
                  </select>
                  <Err id={`item-${i}-system-error`} messages={translateError(e?.system?.message)} />
                  <Controller
                    control={control}
                    name={`items.${i}.code`}
                    render={({ field: f }) => (
                      <CodeCombobox
                        // A new list is a new picker: the code of the old list is not offered in it.
                        key={items[i]?.system || CPT_SYSTEM}
                        system={items[i]?.system || CPT_SYSTEM}
                        label={t("serviceOf", { n: i + 1 })}
                        labelHidden
                        value={f.value}
                        onChange={f.onChange}
                        disabled={disabled}
                        errors={translateError(e?.code?.message)}
                        testId={`item-${i}-service`}
                      />
                    )}
                  />
                  {maternity && (
                    <label className="mt-1 inline-flex items-center gap-1.5 text-xs text-slate-700">
                      <input type="checkbox" disabled={disabled} {...register(`items.${i}.maternity`)} aria-label={tv("maternityOf", { n: i + 1 })} data-testid={`item-${i}-maternity`} />
                      <span aria-hidden>{tv("maternity")}</span>
                    </label>
                  )}
                  {needsAuthorization?.has((items[i]?.code ?? "").trim()) && (
                    <p className={`mt-1 text-xs font-medium ${authorizationGiven ? "text-emerald-800" : "text-amber-800"}`} data-testid={`item-${i}-needs-authorization`}>
                      {tver(authorizationGiven ? "needsAuthorizationGiven" : "needsAuthorization")}
                    </p>
                  )}
                  {performed && (
                    <label className="mt-1 ms-3 inline-flex items-center gap-1.5 text-xs text-slate-700">
                      <input type="checkbox" disabled={disabled} {...register(`items.${i}.performed`)} aria-label={tver("performedOf", { n: i + 1 })} data-testid={`item-${i}-performed`} />
                      <span aria-hidden>{tver("performed")}</span>
                    </label>
                  )}
                </td>
                {oral && (
                  <td className={cell}>
                    <label className="sr-only" htmlFor={`item-${i}-tooth`}>
                      {tc("toothOf", { n: i + 1 })}
                    </label>
                    <input
                      id={`item-${i}-tooth`}
                      inputMode="numeric"
                      dir="ltr"
                      maxLength={2}
                      disabled={disabled}
                      {...register(`items.${i}.tooth`)}
                      aria-invalid={e?.tooth ? true : undefined}
                      aria-describedby={e?.tooth ? `item-${i}-tooth-error` : undefined}
                      className={`${inputClasses(!!e?.tooth)} mt-0 tabular-nums`}
                      data-testid={`item-${i}-tooth`}
                    />
                    <Err id={`item-${i}-tooth-error`} messages={translateError(e?.tooth?.message)} />
                  </td>
                )}
                <td className={cell}>
                  <label className="sr-only" htmlFor={`item-${i}-date`}>
                    {t("dateOf", { n: i + 1 })}
                  </label>
                  <input
                    id={`item-${i}-date`}
                    type="date"
                    disabled={disabled}
                    {...register(`items.${i}.servicedDate`)}
                    aria-invalid={e?.servicedDate ? true : undefined}
                    aria-describedby={e?.servicedDate ? `item-${i}-date-error` : undefined}
                    className={`${inputClasses(!!e?.servicedDate)} mt-0`}
                  />
                  <Err id={`item-${i}-date-error`} messages={translateError(e?.servicedDate?.message)} />
                </td>
                <td className={cell}>
                  <label className="sr-only" htmlFor={`item-${i}-quantity`}>
                    {t("quantityOf", { n: i + 1 })}
                  </label>
                  <input
                    id={`item-${i}-quantity`}
                    inputMode="numeric"
                    dir="ltr"
                    disabled={disabled}
                    {...register(`items.${i}.quantity`)}
                    aria-invalid={e?.quantity ? true : undefined}
                    aria-describedby={e?.quantity ? `item-${i}-quantity-error` : undefined}
                    className={`${inputClasses(!!e?.quantity)} mt-0 text-end tabular-nums`}
                  />
                  <Err id={`item-${i}-quantity-error`} messages={translateError(e?.quantity?.message)} />
                </td>
                <td className={cell}>
                  <label className="sr-only" htmlFor={`item-${i}-price`}>
                    {t("unitPriceOf", { n: i + 1 })}
                  </label>
                  <input
                    id={`item-${i}-price`}
                    inputMode="decimal"
                    dir="ltr"
                    placeholder="0.00"
                    disabled={disabled}
                    {...register(`items.${i}.unitPrice`)}
                    aria-invalid={e?.unitPrice ? true : undefined}
                    aria-describedby={e?.unitPrice ? `item-${i}-price-error` : undefined}
                    className={`${inputClasses(!!e?.unitPrice)} mt-0 text-end tabular-nums`}
                  />
                  <Err id={`item-${i}-price-error`} messages={translateError(e?.unitPrice?.message)} />
                  <ContractHint n={i} contractMinor={contractPrices?.get(i)} typed={items[i]?.unitPrice ?? ""} />
                </td>
                <td className={`${cell} pt-4 text-end font-medium tabular-nums`} dir="ltr" data-testid={`item-${i}-total`} data-label={t("lineTotal")}>
                  {formatAmount(totals[i])}
                </td>
                <td className={`${cell} text-end`}>
                  <button
                    type="button"
                    disabled={disabled || fields.length === 1}
                    onClick={() => remove(i)}
                    className="rounded-md px-2 py-1.5 text-sm text-slate-600 hover:bg-red-50 hover:text-red-800 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-brand-600"
                    aria-label={t("removeLine", { n: i + 1 })}
                  >
                    {t("remove")}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot className="border-t border-slate-200 bg-slate-50">
          <tr>
            <td colSpan={oral ? 6 : 5} className="px-2 py-2">
              <button
                type="button"
                disabled={disabled || fields.length >= 50}
                onClick={() => append(emptyItem(defaultDate, defaultItemSystem(claimType, protocol)))}
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                + {t("add")}
              </button>
            </td>
            <td className="px-2 py-2 text-end font-semibold tabular-nums" dir="ltr">
              <span className="sr-only">{t("total")} </span>
              <span data-testid="items-total">{formatAmount(grand)}</span> <span className="text-xs font-normal text-slate-500">{currencySymbol(locale)}</span>
            </td>
            <td />
          </tr>
        </tfoot>
      </TableFrame>
    </fieldset>
  );
}

/** "Contract price 150.00" under a line's price box; amber when the price typed is another. */
function ContractHint({ n, contractMinor, typed }: { n: number; contractMinor: number | undefined; typed: string }) {
  const t = useTranslations("coding.items");
  if (contractMinor === undefined) return null;
  const typedMinor = parseAmountMinor(typed);
  const differs = typedMinor !== undefined && typedMinor !== contractMinor;
  return (
    <p className={`mt-1 text-xs ${differs ? "text-amber-900" : "text-slate-600"}`} data-testid={`item-${n}-contract-price`} data-differs={differs || undefined}>
      {t("contractPrice")} <bdi dir="ltr" className="tabular-nums">{formatAmount(contractMinor)}</bdi>
      {differs && <span className="block">{t("contractPriceDiffers")}</span>}
    </p>
  );
}

function Err({ id, messages }: { id: string; messages?: React.ReactNode[] }) {
  if (!messages?.length) return null;
  return (
    <ul id={id} className="mt-1 text-xs text-red-700">
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}
