"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useId, useMemo, useState, useTransition } from "react";
import { useForm, useWatch } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button, buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { checkNationalId } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";
import { registerPatientAction, GENDERS, loadPatientFormSchemas, updatePatientAction } from "@/lib/patients/browser";
import type { RegisterPatientInput } from "@/lib/patients";
import { describedBy, FieldMessages, FormAlert, inputClasses, SelectField } from "./form-controls";
import { useHydrated } from "@/components/forms/use-hydrated";

type Field = keyof RegisterPatientInput;

/** Registers a patient, or (with `patient`) corrects a registered one: the same fields and rules. */
export function RegisterPatientForm({
  allowSandboxTestIds,
  patient,
  lists = { occupation: mds.OCCUPATIONS, religion: mds.RELIGIONS },
}: {
  allowSandboxTestIds: boolean;
  patient?: RegisterPatientInput & { id: string };
  /** The occupation and religion lists as the catalogue holds them (the clinic's imports, decision 118). */
  lists?: { occupation: readonly mds.Labelled[]; religion: readonly mds.Labelled[] };
}) {
  const editing = patient !== undefined;
  const t = useTranslations("patients");
  const lang = useLocale() === "ar" ? "ar" : "en";
  const [pending, startTransition] = useTransition();
  const [failure, setFailure] = useState<"checkFields" | "unauthorized" | "forbidden" | "failed" | "notFound">();
  const [duplicateOf, setDuplicateOf] = useState<string>();
  const resolver = useMemo(
    () => lazyZodResolver<RegisterPatientInput>(() => loadPatientFormSchemas().then((m) => m.registerPatientSchema({ allowSandboxTestIds }))),
    [allowSandboxTestIds],
  );
  const form = useForm<RegisterPatientInput>({
    resolver,
    mode: "onTouched",
    defaultValues: patient
      ? { nationalId: patient.nationalId, givenName: patient.givenName, familyName: patient.familyName, birthDate: patient.birthDate, gender: patient.gender, phone: patient.phone, maritalStatus: patient.maritalStatus, occupation: patient.occupation, religion: patient.religion }
      : { nationalId: "", givenName: "", familyName: "", birthDate: "", gender: undefined, phone: "", maritalStatus: "", occupation: "", religion: "" },
  });
  const idFieldId = useId();
  const hydrated = useHydrated();

  const errorsOf = (name: Field) => {
    const message = form.formState.errors[name]?.message;
    return message ? [t(`errors.${message}` as "errors.failed")] : undefined;
  };

  // Live feedback on the number while it is typed: progress, then valid or the exact problem.
  const nationalId = useWatch({ control: form.control, name: "nationalId" }) ?? "";
  const live = checkNationalId(nationalId, { allowSandboxTestIds });
  const idErrors = errorsOf("nationalId");
  const idHint =
    live.valid
      ? live.sandboxTestId
        ? t("fields.nationalIdSandbox")
        : t("fields.nationalIdValid")
      : /^\d{0,9}$/.test(nationalId.trim()) && !idErrors
        ? `${t("fields.nationalIdHint")} ${t("fields.nationalIdProgress", { count: nationalId.trim().length })}`
        : t("fields.nationalIdHint");
  const idRegistration = form.register("nationalId", {
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      setDuplicateOf(undefined);
      const value = event.target.value.trim();
      // Validate as the user types once the number is complete or clearly wrong.
      if (value.length >= 10 || /\D/.test(value) || form.formState.errors.nationalId) void form.trigger("nationalId");
    },
  });

  const onSubmit = form.handleSubmit(
    (values) => {
      setFailure(undefined);
      startTransition(async () => {
        let result;
        try {
          result = patient ? await updatePatientAction({ ...values, id: patient.id }) : await registerPatientAction(values);
        } catch {
          setFailure("failed");
          return;
        }
        if (result.ok) {
          // A full load of the record just saved: the client router kept the record's page from before
          // the change and showed it again after a second save (seen in CI, with push and refresh alike).
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- see above
          window.location.assign(`/patients/${result.id}`);
          return;
        }
        if (result.error === "invalid" && result.fieldErrors) {
          for (const [name, messages] of Object.entries(result.fieldErrors)) {
            const first = messages?.[0];
            if (!first) continue;
            if (first.startsWith("duplicate:")) {
              setDuplicateOf(first.slice("duplicate:".length));
              form.setError("nationalId", { type: "server", message: "duplicate" });
            } else {
              form.setError(name as Field, { type: "server", message: first });
            }
          }
          setFailure("checkFields");
          form.setFocus((Object.keys(result.fieldErrors)[0] as Field | undefined) ?? "nationalId");
          return;
        }
        setFailure(
          result.error === "invalid" ? "checkFields" : result.error === "unauthorized" ? "unauthorized" : result.error === "forbidden" ? "forbidden" : result.error === "not_found" ? "notFound" : "failed",
        );
      });
    },
    () => setFailure("checkFields"),
  );

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate aria-describedby={failure ? "register-failure" : undefined}>
      <div aria-live="assertive">
        {failure && (
          <div className="mb-6">
            <FormAlert id="register-failure">{t(`errors.${failure}`)}</FormAlert>
          </div>
        )}
      </div>
      <fieldset disabled={pending || !hydrated} className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2 sm:max-w-sm">
          <label htmlFor={idFieldId} className="block text-sm font-medium text-slate-800">
            {t("fields.nationalId")}
          </label>
          <input
            id={idFieldId}
            {...idRegistration}
            inputMode="numeric"
            autoComplete="off"
            maxLength={14}
            dir="ltr"
            aria-invalid={idErrors ? true : undefined}
            aria-describedby={describedBy(idFieldId, idHint, idErrors)}
            className={`${inputClasses(!!idErrors)} text-start font-mono tracking-wider`}
          />
          <FieldMessages
            id={idFieldId}
            hint={<span aria-live="polite">{live.valid ? `✓ ${idHint}` : idHint}</span>}
            hintTone={live.valid && !idErrors ? "ok" : "muted"}
            errors={
              idErrors &&
              (duplicateOf
                ? [
                    <>
                      {idErrors[0]}{" "}
                      <Link href={`/patients/${duplicateOf}`} className="font-medium underline">
                        {t("errors.openExisting")}
                      </Link>
                    </>,
                  ]
                : idErrors)
            }
          />
        </div>
        <TextField label={t("fields.givenName")} autoComplete="off" errors={errorsOf("givenName")} {...form.register("givenName")} />
        <TextField label={t("fields.familyName")} autoComplete="off" errors={errorsOf("familyName")} {...form.register("familyName")} />
        <TextField label={t("fields.birthDate")} type="date" max={new Date().toISOString().slice(0, 10)} errors={errorsOf("birthDate")} {...form.register("birthDate")} />
        <SelectField label={t("fields.gender")} errors={errorsOf("gender")} defaultValue="" {...form.register("gender")}>
          <option value="" disabled>
            —
          </option>
          {GENDERS.map((g) => (
            <option key={g} value={g}>
              {t(`genders.${g}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("fields.maritalStatus")} errors={errorsOf("maritalStatus")} {...form.register("maritalStatus")}>
          <option value="">—</option>
          {mds.MARITAL_STATUSES.map((m) => (
            <option key={m.code} value={m.code}>
              {m[lang]}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("fields.occupation")} hint={t("fields.occupationHint")} errors={errorsOf("occupation")} {...form.register("occupation")}>
          <option value="">—</option>
          {lists.occupation.map((m) => (
            <option key={m.code} value={m.code}>
              {m[lang]}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("fields.religion")} hint={t("fields.religionHint")} errors={errorsOf("religion")} {...form.register("religion")}>
          <option value="">—</option>
          {lists.religion.map((m) => (
            <option key={m.code} value={m.code}>
              {m[lang]}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t("fields.phone")}
          hint={t("fields.phoneHint")}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          dir="ltr"
          className="sm:col-span-2 sm:max-w-sm"
          errors={errorsOf("phone")}
          {...form.register("phone")}
        />
      </fieldset>
      <div className="mt-6 flex flex-wrap gap-3 border-t border-slate-100 pt-5">
        <Button type="submit" busy={pending} disabled={!hydrated}>
          {pending ? t(editing ? "edit.submitting" : "new.submitting") : t(editing ? "edit.submit" : "new.submit")}
        </Button>
        <Link href={patient ? `/patients/${patient.id}` : "/patients"} className={buttonClasses("secondary")}>
          {t("new.cancel")}
        </Link>
      </div>
    </form>
  );
}
