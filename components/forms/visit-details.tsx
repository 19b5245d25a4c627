"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useMemo } from "react";
import { useWatch, type Control, type FieldErrors, type UseFormGetValues, type UseFormRegister, type UseFormSetValue } from "react-hook-form";
import { FieldMessages, describedBy, inputClasses } from "@/components/patients/form-controls";
import { isClaimType } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";
import type { SubmissionFormInput } from "@/lib/submissions";
import { visitDetailsPlan } from "./visit-details-plan";

type Translate = (key: string | undefined) => React.ReactNode[] | undefined;
const message = (e: unknown): string | undefined => (e as { message?: string } | undefined)?.message;
/** The error react-hook-form keeps at a dotted path of the form's errors. */
const errorAt = (errors: FieldErrors<SubmissionFormInput>, path: string): string | undefined =>
  message(path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), errors));

/** UCUM units as staff read them. */
const UNIT_WORDS: Readonly<Record<string, string>> = { "mm[Hg]": "mmHg", Cel: "°C" };

type Prefill = Partial<Omit<NonNullable<SubmissionFormInput["clinical"]>, "conditionOnset">>;

/** The prefill's answers by form path (`clinical.encounter.serviceEventType` …): its non-empty strings. */
export function prefillPaths(prefill: Prefill): [string, string][] {
  const out: [string, string][] = [];
  const walk = (node: unknown, at: string) => {
    if (typeof node === "string") {
      if (node.trim() !== "") out.push([at, node]);
    } else if (node && typeof node === "object" && !Array.isArray(node)) for (const [key, value] of Object.entries(node)) walk(value, `${at}.${key}`);
  };
  walk(prefill, "clinical");
  return out;
}

/** A practitioner's specialty, the list the care team is picked from (docs/decisions/084). */
export interface SpecialtySource {
  specialty: string;
  /** The specialty in words, from the catalogue (absent: the code is shown). */
  specialtyName?: { en: string; ar: string };
}

/**
 * "Visit details": what the national exchange's Minimum Data Set asks of this visit
 * (docs/decisions/103, 105) — only what the care setting, the use, the diagnoses and the patient's
 * age need (`visitDetailsPlan`): first or follow-up visit, the kind of visit when the setting
 * allows several, the emergency and inpatient blocks, the vital signs (a measurement or why it was
 * not taken), the clinical notes, the investigation result, morphology, admission weight of a baby,
 * the accident and each diagnosis's condition onset. A chunk of its own, rendered only where the
 * message goes to the national exchange; every input is named by its form path.
 */
export default function VisitDetails({
  control,
  register,
  setValue,
  getValues,
  errors,
  translateError: tr,
  practitioners,
  patientId,
  initialClinical,
  prefillClinical,
  birthDate,
  today,
  onMaternity,
  lists = mds.MDS_CODE_LISTS,
}: {
  control: Control<SubmissionFormInput>;
  register: UseFormRegister<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  getValues?: UseFormGetValues<SubmissionFormInput>;
  errors: FieldErrors<SubmissionFormInput>;
  translateError: Translate;
  /** The chosen patient: the prefill is asked for them. */
  patientId?: string;
  /** What the page knows of this visit already; fills only what is still empty. */
  initialClinical?: Prefill;
  /** The patient's last clinical facts (a server action); fills only what is still empty. */
  prefillClinical?: (patientId: string) => Promise<Prefill | undefined>;
  /** Where the specialties come from: the practitioners the care team is picked from. */
  practitioners: readonly SpecialtySource[];
  birthDate?: string;
  today: string;
  /** Tells the form whether the lines ask the maternity flag. */
  onMaternity?: (asked: boolean) => void;
  /** The value sets as the catalogue holds them (the clinic's imports; docs/decisions/118). */
  lists?: mds.MdsCodeLists;
}) {
  const t = useTranslations("visitDetails");
  const tcs = useTranslations("careSetting");
  const locale = useLocale();
  const label = (l: mds.Labelled) => (locale === "ar" ? l.ar : l.en);
  const [use, watchedType, subtype, diagnoses, admission, discharge, estimatedStay, clinical] = useWatch({
    control,
    name: ["use", "claimType", "subtype", "diagnoses", "admission", "discharge", "estimatedStay", "clinical"],
  });
  const claimType = isClaimType(watchedType) ? watchedType : "professional";
  const encounter = clinical?.encounter;
  const codes = useMemo(() => diagnoses ?? [], [diagnoses]);
  const plan = visitDetailsPlan({
    use: use === "claim" ? "claim" : "preauthorization",
    claimType,
    subtype: subtype ?? "op",
    diagnoses: codes,
    admission: admission ?? "",
    discharge: discharge ?? "",
    emergencyDisposition: encounter?.emergencyDisposition ?? "",
    dischargeDisposition: encounter?.dischargeDisposition ?? "",
    birthDate,
    today,
  });
  const specialties = [...new Set(practitioners.map((p) => p.specialty).filter(Boolean))].sort();
  const specialtyNames = new Map(practitioners.flatMap((p) => (p.specialtyName ? [[p.specialty, p.specialtyName] as const] : [])));

  useEffect(() => onMaternity?.(plan.maternity), [onMaternity, plan.maternity]);

  // Prefill (docs/decisions/105): what the page knows, then the patient's last clinical facts — each
  // only where the form is still empty, never over what staff typed or the draft kept.
  useEffect(() => {
    if (!getValues) return;
    let live = true;
    const fill = (prefill: Prefill | undefined) => {
      if (!live || !prefill) return;
      for (const [path, value] of prefillPaths(prefill)) {
        const current: unknown = getValues(path as "clinical.morphology");
        if (current === undefined || current === "") setValue(path as "clinical.morphology", value);
      }
    };
    fill(initialClinical);
    if (patientId && prefillClinical) prefillClinical(patientId).then(fill, () => undefined);
    return () => {
      live = false;
    };
  }, [patientId]); // eslint-disable-line react-hooks/exhaustive-deps -- once per chosen patient

  // What the setting no longer asks is not kept: a class this setting does not allow, a baby's weight past one year.
  const currentClass = encounter?.class ?? "";
  const currentWeight = clinical?.admissionWeight ?? "";
  const classAllowed = plan.encounterClasses.includes(currentClass);
  useEffect(() => {
    if (currentClass !== "" && !classAllowed) setValue("clinical.encounter.class", "");
  }, [currentClass, classAllowed, setValue]);
  useEffect(() => {
    if (currentWeight !== "" && !plan.admissionWeight) setValue("clinical.admissionWeight", "");
  }, [currentWeight, plan.admissionWeight, setValue]);
  // A prior authorization's intended stay is the care setting's estimated stay: one question, one answer.
  const intended = encounter?.intendedStay ?? "";
  useEffect(() => {
    if (plan.inpatient && use === "preauthorization" && intended !== (estimatedStay ?? "")) setValue("clinical.encounter.intendedStay", estimatedStay ?? "");
  }, [plan.inpatient, use, intended, estimatedStay, setValue]);

  if (!plan.section) return null;
  const err = (path: string) => tr(errorAt(errors, path));
  const select = (path: `clinical.${string}`, title: string, options: readonly mds.Labelled[], hint?: string) => (
    <Select key={path} label={title} hint={hint} errors={err(path)} {...register(path as "clinical.morphology")}>
      <option value="">{t("choose")}</option>
      {options.map((o) => (
        <option key={o.code} value={o.code}>
          {label(o)}
        </option>
      ))}
    </Select>
  );
  const specialty = (path: "clinical.encounter.admissionSpecialty" | "clinical.encounter.dischargeSpecialty", title: string) => {
    const value = encounter?.[path === "clinical.encounter.admissionSpecialty" ? "admissionSpecialty" : "dischargeSpecialty"] ?? "";
    const list = value && !specialties.includes(value) ? [value, ...specialties] : specialties;
    return select(
      path,
      title,
      list.map((code) => {
        const name = specialtyNames.get(code);
        return name ? { code, en: `${name.en} (${code})`, ar: `${name.ar} (${code})` } : { code, en: tcs("specialty", { code }), ar: tcs("specialty", { code }) };
      }),
      t("specialtyHint"),
    );
  };
  const grid = "grid gap-4 sm:grid-cols-2 lg:grid-cols-3";

  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-visit" data-testid="visit-details">
      <h2 id="sec-visit" className="text-base font-semibold text-slate-900">
        {t("section")}
      </h2>
      <p className="mt-1 mb-4 text-sm text-slate-600">{t("intro")}</p>
      <div className="space-y-6">
        {(plan.encounterClass || plan.serviceEventType || plan.visitStart) && (
          <div className={grid}>
            {plan.encounterClass &&
              select(
                "clinical.encounter.class",
                t("encounterClass"),
                mds.ENCOUNTER_CLASSES.filter((c) => plan.encounterClasses.includes(c.code)),
              )}
            {plan.serviceEventType && select("clinical.encounter.serviceEventType", t("serviceEventType"), lists["service-event-type"])}
            {plan.visitStart && <Input label={t("visitStart")} type="datetime-local" errors={err("clinical.encounter.start")} {...register("clinical.encounter.start")} />}
          </div>
        )}

        {plan.emergency && (
          <Group title={t("emergency")} testId="visit-emergency">
            <div className={grid}>
              {select("clinical.encounter.triageCategory", t("triageCategory"), lists["triage-category"])}
              <Input label={t("triageDate")} type="datetime-local" errors={err("clinical.encounter.triageDate")} {...register("clinical.encounter.triageDate")} />
              {select("clinical.encounter.arrivalCode", t("arrivalCode"), lists["emergency-arrival-code"])}
              <Input label={t("emergencyServiceStart")} type="datetime-local" errors={err("clinical.encounter.emergencyServiceStart")} {...register("clinical.encounter.emergencyServiceStart")} />
              {plan.emergencyDisposition && select("clinical.encounter.emergencyDisposition", t("emergencyDisposition"), lists["emergency-department-disposition"])}
            </div>
          </Group>
        )}

        {plan.inpatient && (
          <Group title={t("inpatient")} testId="visit-inpatient">
            <div className={grid}>
              {select("clinical.encounter.admitSource", t("admitSource"), lists["admit-source"])}
              {specialty("clinical.encounter.admissionSpecialty", t("admissionSpecialty"))}
              {plan.intendedStay && (
                <Input label={t("intendedStay")} hint={t("intendedStayHint")} inputMode="numeric" dir="ltr" errors={err("clinical.encounter.intendedStay")} {...register("clinical.encounter.intendedStay")} />
              )}
              {plan.admissionWeight && (
                <Input label={t("admissionWeight")} hint={t("admissionWeightHint")} inputMode="decimal" dir="ltr" errors={err("clinical.admissionWeight")} {...register("clinical.admissionWeight")} />
              )}
              {plan.discharge && specialty("clinical.encounter.dischargeSpecialty", t("dischargeSpecialty"))}
              {plan.discharge && select("clinical.encounter.dischargeDisposition", t("dischargeDisposition"), lists["discharge-disposition"])}
            </div>
          </Group>
        )}

        {plan.causeOfDeath && (
          <div className={grid}>
            <Input label={t("causeOfDeath")} dir="ltr" errors={err("clinical.encounter.causeOfDeath")} {...register("clinical.encounter.causeOfDeath")} />
          </div>
        )}

        {plan.vitalSigns.length > 0 && (
          <Group title={t("vitalSigns")} hint={t("vitalSignsHint")} testId="visit-vital-signs">
            <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {plan.vitalSigns.map((sign) => (
                <VitalSignCell
                  key={sign}
                  sign={sign}
                  name={label({ code: sign, ...mds.VITAL_SIGNS[sign] })}
                  register={register}
                  setValue={setValue}
                  errors={{ value: err(`clinical.vitalSigns.${sign}.value`), absent: err(`clinical.vitalSigns.${sign}.absent`) }}
                  reasons={lists[mds.absenceListOf(sign)].map((r) => ({ code: r.code, text: label(r) }))}
                  hasValue={(clinical?.vitalSigns?.[sign]?.value ?? "") !== ""}
                  hasReason={(clinical?.vitalSigns?.[sign]?.absent ?? "") !== ""}
                  t={t}
                />
              ))}
            </ul>
          </Group>
        )}

        {plan.notes.length > 0 && (
          <Group title={t("notes")} testId="visit-notes">
            <div className="grid gap-4 lg:grid-cols-2">
              {plan.notes.map((note) => (
                <TextArea key={note} label={label({ code: note, ...mds.CLINICAL_NOTES[note] })} errors={err(`clinical.notes.${note}`)} {...register(`clinical.notes.${note}`)} />
              ))}
            </div>
          </Group>
        )}

        {(plan.investigation || plan.morphology || plan.accident) && (
          <div className={grid}>
            {plan.investigation && select("clinical.investigation.code", t("investigation"), lists["investigation-result"])}
            {plan.investigation && clinical?.investigation?.code === "other" && (
              <Input label={t("investigationText")} errors={err("clinical.investigation.text")} {...register("clinical.investigation.text")} />
            )}
            {plan.morphology && select("clinical.morphology", t("morphology"), lists["morphology-code"], t("morphologyHint"))}
            {plan.accident && (
              <>
                <Select
                  label={t("accidentType")}
                  hint={plan.accidentRequired ? t("accidentTypeRequired") : t("accidentTypeHint")}
                  errors={err("clinical.accident.type")}
                  {...register("clinical.accident.type")}
                >
                  <option value="">{t("none")}</option>
                  {mds.ACCIDENT_TYPES.map((o) => (
                    <option key={o.code} value={o.code}>
                      {label(o)}
                    </option>
                  ))}
                </Select>
                {(clinical?.accident?.type ?? "") !== "" && (
                  <Input label={t("accidentDate")} type="date" errors={err("clinical.accident.date")} {...register("clinical.accident.date")} />
                )}
              </>
            )}
          </div>
        )}

        {plan.conditionOnset && (
          <ConditionOnset
            codes={codes}
            answers={clinical?.conditionOnset ?? {}}
            setValue={setValue}
            errors={err("clinical.conditionOnset")}
            revalidate={!!errorAt(errors, "clinical.conditionOnset")}
            options={lists["condition-onset"].map((o) => ({ code: o.code, text: label(o) }))}
            t={t}
          />
        )}
      </div>
    </section>
  );
}

function Group({ title, hint, testId, children }: { title: string; hint?: string; testId: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <fieldset className="min-w-0" aria-describedby={hint ? `${id}-hint` : undefined} data-testid={testId}>
      <legend className="text-sm font-semibold text-slate-900">{title}</legend>
      {hint && (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <div className="mt-2">{children}</div>
    </fieldset>
  );
}

type Field<T> = T & { label: string; hint?: string; errors?: React.ReactNode[] };

function Input({ label, hint, errors, ...input }: Field<React.ComponentProps<"input">>) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} {...input} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy(id, hint, errors)} className={inputClasses(!!errors?.length)} />
      <FieldMessages id={id} hint={hint} errors={errors} />
    </div>
  );
}

function Select({ label, hint, errors, children, ...select }: Field<React.ComponentProps<"select">>) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} {...select} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy(id, hint, errors)} className={inputClasses(!!errors?.length)}>
        {children}
      </select>
      <FieldMessages id={id} hint={hint} errors={errors} />
    </div>
  );
}

function TextArea({ label, hint, errors, ...area }: Field<React.ComponentProps<"textarea">>) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea id={id} rows={3} dir="auto" {...area} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy(id, hint, errors)} className={inputClasses(!!errors?.length)} />
      <FieldMessages id={id} hint={hint} errors={errors} />
    </div>
  );
}

type T = ReturnType<typeof useTranslations<"visitDetails">>;

/** One vital sign: the measurement in its unit, or (beside it) why it was not taken — choosing one clears the other. */
function VitalSignCell({
  sign,
  name,
  register,
  setValue,
  errors,
  reasons,
  hasValue,
  hasReason,
  t,
}: {
  sign: mds.VitalSign;
  name: string;
  register: UseFormRegister<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  errors: { value?: React.ReactNode[]; absent?: React.ReactNode[] };
  reasons: readonly { code: string; text: string }[];
  hasValue: boolean;
  hasReason: boolean;
  t: T;
}) {
  const id = useId();
  const unit = mds.VITAL_SIGNS[sign].unit;
  const value = register(`clinical.vitalSigns.${sign}.value`);
  const absent = register(`clinical.vitalSigns.${sign}.absent`);
  return (
    <li className="min-w-0 rounded-md border border-slate-200 p-2" data-testid={`vital-${sign}`}>
      <label htmlFor={`${id}-v`} className="block text-sm font-medium text-slate-800">
        {name} (<bdi dir="ltr">{UNIT_WORDS[unit] ?? unit}</bdi>)
      </label>
      <div className="mt-1 flex gap-2">
        <div className="w-24 shrink-0">
          <input
            id={`${id}-v`}
            inputMode="decimal"
            dir="ltr"
            {...value}
            onChange={async (e) => {
              // The reason goes first, so this field is checked against the cleared one; a stale error on the reason is checked again.
              const clear = e.target.value !== "" && hasReason;
              if (clear) setValue(`clinical.vitalSigns.${sign}.absent`, "");
              await value.onChange(e);
              if (clear && errors.absent?.length) setValue(`clinical.vitalSigns.${sign}.absent`, "", { shouldValidate: true });
            }}
            aria-invalid={errors.value?.length ? true : undefined}
            aria-describedby={describedBy(`${id}-v`, undefined, errors.value)}
            className={`${inputClasses(!!errors.value?.length)} mt-0 tabular-nums`}
          />
        </div>
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-a`} className="sr-only">
            {t("vitalAbsent", { sign: name })}
          </label>
          <select
            id={`${id}-a`}
            {...absent}
            onChange={async (e) => {
              const clear = e.target.value !== "" && hasValue;
              if (clear) setValue(`clinical.vitalSigns.${sign}.value`, "");
              await absent.onChange(e);
              if (clear && errors.value?.length) setValue(`clinical.vitalSigns.${sign}.value`, "", { shouldValidate: true });
            }}
            aria-invalid={errors.absent?.length ? true : undefined}
            aria-describedby={describedBy(`${id}-a`, undefined, errors.absent)}
            className={`${inputClasses(!!errors.absent?.length)} mt-0 px-2 text-xs text-slate-700`}
          >
            <option value="">{t("measured")}</option>
            {reasons.map((r) => (
              <option key={r.code} value={r.code}>
                {r.text}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FieldMessages id={`${id}-v`} errors={errors.value} />
      <FieldMessages id={`${id}-a`} errors={errors.absent} />
    </li>
  );
}

/** Institutional claims: for each diagnosis, when the condition arose — kept by its code, like "present on admission". */
function ConditionOnset({
  codes,
  answers,
  setValue,
  errors,
  revalidate,
  options,
  t,
}: {
  codes: readonly string[];
  answers: Readonly<Record<string, string>>;
  setValue: UseFormSetValue<SubmissionFormInput>;
  errors?: React.ReactNode[];
  revalidate: boolean;
  options: readonly { code: string; text: string }[];
  t: T;
}) {
  const id = useId();
  return (
    <fieldset className="min-w-0" aria-describedby={describedBy(id, t("conditionOnsetHint"), errors)} data-testid="visit-condition-onset">
      <legend className="text-sm font-semibold text-slate-900">{t("conditionOnset")}</legend>
      <ul className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {codes.map((code) => (
          <li key={code}>
            <Select
              label={t("conditionOnsetOf", { code })}
              name={`clinical.conditionOnset[${code}]`}
              value={Object.hasOwn(answers, code) ? answers[code] : ""}
              onChange={(e) => {
                const next = { ...answers };
                if (e.target.value === "") delete next[code];
                else next[code] = e.target.value;
                setValue("clinical.conditionOnset", next, { shouldValidate: revalidate });
              }}
            >
              <option value="">{t("choose")}</option>
              {options.map((o) => (
                <option key={o.code} value={o.code}>
                  {o.text}
                </option>
              ))}
            </Select>
          </li>
        ))}
      </ul>
      <FieldMessages id={id} hint={t("conditionOnsetHint")} errors={errors} />
    </fieldset>
  );
}
