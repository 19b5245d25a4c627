"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useRef } from "react";
import { Controller, useWatch, type Control, type FieldErrors, type UseFormRegister, type UseFormSetValue } from "react-hook-form";
import { FieldMessages, SelectField, describedBy, inputClasses } from "@/components/patients/form-controls";
import { CLAIM_TYPES, SUBTYPES_BY_CLAIM_TYPE, isClaimType, requiredSupportingInfo, type ClaimType } from "@/lib/fhir/browser";
import { CPT_SYSTEM, defaultItemSystem, itemSystemsFor, type PlatformProtocol } from "@/lib/submissions/browser";
import type { SubmissionFormInput } from "@/lib/submissions";

/** A practitioner staff can pick for the care team (lib/facilities, docs/decisions/084). */
export interface PractitionerOption {
  id: string;
  name: string;
  license: string;
  specialty: string;
  /** The specialty in words (the catalogue's practice-codes); absent: shown by its code. */
  specialtyName?: { en: string; ar: string };
}

type Translate = (key: string | undefined) => React.ReactNode[] | undefined;
const message = (e: unknown): string | undefined => (e as { message?: string } | undefined)?.message;

/**
 * The care setting of an authorization request or claim (docs/decisions/083): claim type and
 * subtype, the care team, and only the fields this setting needs — chief complaint, days supply
 * (pharmacy), vision prescription (vision), admission and discharge (inpatient, emergency), the
 * estimated length of stay (an inpatient prior authorization) — with the episode number. Changing
 * the type keeps the subtype and the lines' code lists valid for it.
 */
export function CareSettingFields({
  control,
  register,
  setValue,
  errors,
  practitioners,
  protocol,
  translateError: tr,
}: {
  control: Control<SubmissionFormInput>;
  register: UseFormRegister<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  errors: FieldErrors<SubmissionFormInput>;
  practitioners: readonly PractitionerOption[];
  protocol: PlatformProtocol;
  translateError: Translate;
}) {
  const t = useTranslations("careSetting");
  const locale = useLocale();
  const teamId = useId();
  const watchedType = useWatch({ control, name: "claimType" });
  const type: ClaimType = isClaimType(watchedType) ? watchedType : "professional";
  const subtype = useWatch({ control, name: "subtype" }) ?? "op";
  const watchedItems = useWatch({ control, name: "items" });
  const use = useWatch({ control, name: "use" });
  // What this setting requires of this use (lib/fhir/nphies): an inpatient prior authorization adds the estimated stay.
  const needs = requiredSupportingInfo(type, subtype, use);
  const stay = subtype === "ip" || subtype === "emr";

  const onType = (next: ClaimType) => {
    setValue("claimType", next);
    if (!(SUBTYPES_BY_CLAIM_TYPE[next] as readonly string[]).includes(subtype)) setValue("subtype", SUBTYPES_BY_CLAIM_TYPE[next][0]!);
  };
  // After the new setting's code lists are on screen: lines not coded yet, and lines coded in a list
  // this setting does not use, move to its default list (a select cannot take a value it has no option for).
  const lastType = useRef(type);
  useEffect(() => {
    if (lastType.current === type) return;
    lastType.current = type;
    const allowed = itemSystemsFor(type, protocol);
    (watchedItems ?? []).forEach((item, i) => {
      if (!item?.code || !allowed.includes(item.system || CPT_SYSTEM)) {
        setValue(`items.${i}.system`, defaultItemSystem(type, protocol));
        setValue(`items.${i}.code`, "");
      }
    });
  }, [type, watchedItems, setValue, protocol]);

  return (
    <div className="space-y-5" data-testid="care-setting">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label={t("type")} value={type} onChange={(e) => onType(e.target.value as ClaimType)} errors={tr(message(errors.claimType))} data-testid="claim-type">
          {CLAIM_TYPES.map((c) => (
            <option key={c} value={c}>
              {t(`types.${c}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("subtype")} value={subtype} onChange={(e) => setValue("subtype", e.target.value as typeof subtype)} errors={tr(message(errors.subtype))} data-testid="claim-subtype">
          {SUBTYPES_BY_CLAIM_TYPE[type].map((s) => (
            <option key={s} value={s}>
              {t(`subtypes.${s}`)}
            </option>
          ))}
        </SelectField>
      </div>

      {type !== "pharmacy" && (
        <Controller
          control={control}
          name="careTeam"
          render={({ field }) => {
            const chosen = field.value ?? [];
            const errs = tr(message(errors.careTeam));
            return (
              <fieldset aria-describedby={describedBy(teamId, t("careTeamHint"), errs)} data-testid="care-team">
                <legend className="text-sm font-medium text-slate-800">{t("careTeam")}</legend>
                {practitioners.length === 0 && <p className="mt-1 text-sm text-amber-900">{t("noPractitioners")}</p>}
                <ul className="mt-2 grid gap-2 sm:grid-cols-2">
                  {practitioners.map((p) => {
                    const checked = chosen.includes(p.id);
                    return (
                      <li key={p.id}>
                        <label className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                          <input
                            type="checkbox"
                            className="mt-0.5"
                            checked={checked}
                            onChange={(e) => field.onChange(e.target.checked ? [...chosen, p.id] : chosen.filter((id) => id !== p.id))}
                            data-testid={`practitioner-${p.license}`}
                          />
                          <span>
                            <span className="font-medium text-slate-900">{p.name}</span>
                            {chosen[0] === p.id && <span className="ms-2 rounded bg-brand-100 px-1.5 text-xs text-brand-900">{t("primary")}</span>}
                            <span className="block text-xs text-slate-600" dir="auto">
                              {p.specialtyName ? `${p.specialtyName[locale === "ar" ? "ar" : "en"]} (${p.specialty})` : t("specialty", { code: p.specialty })} · <span dir="ltr">{t("license", { license: p.license })}</span>
                            </span>
                          </span>
                        </label>
                      </li>
                    );
                  })}
                </ul>
                <FieldMessages id={teamId} hint={t("careTeamHint")} errors={errs} />
              </fieldset>
            );
          }}
        />
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        {needs.includes("chief-complaint") && (
          <TextInput label={t("chiefComplaint")} hint={t("chiefComplaintHint")} errors={tr(message(errors.chiefComplaint))} testId="chief-complaint" {...register("chiefComplaint")} />
        )}
        {needs.includes("days-supply") && (
          <TextInput label={t("daysSupply")} hint={t("daysSupplyHint")} inputMode="numeric" dir="ltr" errors={tr(message(errors.daysSupply))} testId="days-supply" {...register("daysSupply")} />
        )}
        {type === "vision" && <TextInput label={t("visionPrescription")} dir="ltr" errors={tr(message(errors.visionPrescription))} testId="vision-prescription" {...register("visionPrescription")} />}
        {stay && <TextInput label={t("admission")} type="datetime-local" errors={tr(message(errors.admission))} testId="admission" {...register("admission")} />}
        {stay && <TextInput label={t("discharge")} hint={t("dischargeHint")} type="datetime-local" errors={tr(message(errors.discharge))} testId="discharge" {...register("discharge")} />}
        {needs.includes("estimated-Length-of-Stay") && (
          <TextInput label={t("estimatedStay")} hint={t("estimatedStayHint")} inputMode="numeric" dir="ltr" errors={tr(message(errors.estimatedStay))} testId="estimated-stay" {...register("estimatedStay")} />
        )}
        <TextInput label={t("episode")} hint={t("episodeHint")} dir="ltr" errors={tr(message(errors.episodeId))} testId="episode" {...register("episodeId")} />
      </div>
    </div>
  );
}

function TextInput({
  label,
  hint,
  errors,
  testId,
  ...input
}: React.ComponentProps<"input"> & { label: string; hint?: string; errors?: React.ReactNode[]; testId: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} {...input} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy(id, hint, errors)} className={inputClasses(!!errors?.length)} data-testid={testId} />
      <FieldMessages id={id} hint={hint} errors={errors} />
    </div>
  );
}
