"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { loadNewbornSchema, registerNewbornAction, GENDERS } from "@/lib/patients/browser";
import type { RegisterNewbornInput } from "@/lib/patients";
import { FormAlert, SelectField } from "@/components/patients/form-controls";
import { useHydrated } from "@/components/forms/use-hydrated";

type Field = keyof RegisterNewbornInput;

// The schema is built for the browser with sandbox identities allowed: the server parses again with its own setting.
const resolver = lazyZodResolver<RegisterNewbornInput>(() => loadNewbornSchema().then((m) => m.registerNewbornSchema({ allowSandboxTestIds: true })));

/** "Register a newborn" on the mother's page (docs/decisions/110): the baby's record linked to hers. */
export function RegisterNewbornForm({ motherId, familyName, today }: { motherId: string; familyName: string; today: string }) {
  const t = useTranslations("patients");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const [status, setStatus] = useState<"checkFields" | "unauthorized" | "forbidden" | "failed">();
  const empty = { motherId, nationalId: "", givenName: "", familyName, birthDate: today, birthTime: "", gender: "" as RegisterNewbornInput["gender"], birthWeightKg: "" };
  const form = useForm<RegisterNewbornInput>({ resolver, mode: "onTouched", defaultValues: empty });
  const errorsOf = (name: Field) => {
    const message = form.formState.errors[name]?.message;
    if (!message) return undefined;
    return [message.startsWith("duplicate:") ? t("errors.duplicate") : t(`errors.${message}` as "errors.failed")];
  };

  const onSubmit = form.handleSubmit(
    (values) => {
      setStatus(undefined);
      startTransition(async () => {
        let result;
        try {
          result = await registerNewbornAction(values);
        } catch {
          setStatus("failed");
          return;
        }
        if (result.ok) {
          router.push(`/patients/${result.id}`);
          return;
        }
        if (result.error === "invalid" && result.fieldErrors) {
          for (const [name, messages] of Object.entries(result.fieldErrors)) {
            if (messages?.[0]) form.setError(name as Field, { type: "server", message: messages[0] });
          }
        }
        setStatus(result.error === "invalid" ? "checkFields" : result.error === "unauthorized" ? "unauthorized" : result.error === "forbidden" ? "forbidden" : "failed");
      });
    },
    () => setStatus("checkFields"),
  );

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate aria-label={t("newborn.register")} data-testid="register-newborn-form">
      <div aria-live="polite">
        {status && (
          <div className="mb-4">
            <FormAlert>{t(`errors.${status}`)}</FormAlert>
          </div>
        )}
      </div>
      <input type="hidden" {...form.register("motherId")} />
      <fieldset disabled={pending || !hydrated} className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <TextField label={t("newborn.givenName")} autoComplete="off" errors={errorsOf("givenName")} {...form.register("givenName")} />
        <TextField label={t("fields.familyName")} autoComplete="off" errors={errorsOf("familyName")} {...form.register("familyName")} />
        <TextField label={t("newborn.nationalId")} hint={t("newborn.nationalIdHint")} inputMode="numeric" autoComplete="off" dir="ltr" errors={errorsOf("nationalId")} {...form.register("nationalId")} />
        <TextField label={t("newborn.birthDate")} type="date" max={today} errors={errorsOf("birthDate")} {...form.register("birthDate")} />
        <TextField label={t("newborn.birthTime")} type="time" errors={errorsOf("birthTime")} {...form.register("birthTime")} />
        <SelectField label={t("fields.gender")} errors={errorsOf("gender")} {...form.register("gender")}>
          <option value="">{t("newborn.chooseGender")}</option>
          {GENDERS.map((g) => (
            <option key={g} value={g}>
              {t(`genders.${g}`)}
            </option>
          ))}
        </SelectField>
        <TextField label={t("newborn.birthWeight")} hint={t("newborn.birthWeightHint")} inputMode="decimal" autoComplete="off" dir="ltr" errors={errorsOf("birthWeightKg")} {...form.register("birthWeightKg")} />
      </fieldset>
      <Button type="submit" busy={pending} disabled={!hydrated} className="mt-4">
        {pending ? t("newborn.registering") : t("newborn.register")}
      </Button>
    </form>
  );
}
