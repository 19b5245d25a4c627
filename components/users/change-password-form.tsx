"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { PASSWORD_MIN_LENGTH, changeOwnPasswordAction, loadChangePasswordSchema, type ChangePasswordInput } from "@/lib/auth/browser";
import { accountErrorKey } from "./account-errors";

const resolver = lazyZodResolver<ChangePasswordInput>(loadChangePasswordSchema);
type Field = keyof ChangePasswordInput;

/**
 * "Change my password" (decision 102): the current password, the new one twice, checked by the
 * same schema in the browser and in the server action. `required`: the user signed in with a
 * temporary or published password and goes on to their start page once it is changed.
 */
export function ChangePasswordForm({ required = false }: { required?: boolean }) {
  const t = useTranslations("account");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string }>();
  const form = useForm<ChangePasswordInput>({ resolver, defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" } });
  const errorsOf = (name: Field) => {
    const code = form.formState.errors[name]?.message;
    return code ? [t(accountErrorKey(code) as "errors.failed", { min: PASSWORD_MIN_LENGTH })] : undefined;
  };

  const onSubmit = form.handleSubmit((values) =>
    start(async () => {
      setMessage(undefined);
      const result = await changeOwnPasswordAction(values);
      if (result.ok) {
        form.reset();
        if (required) {
          router.replace(result.home);
          router.refresh();
          return;
        }
        setMessage({ tone: "ok", text: t("changed") });
        return;
      }
      for (const [field, codes] of Object.entries(result.fieldErrors ?? {})) {
        if (codes?.[0] && (field === "currentPassword" || field === "newPassword" || field === "confirmPassword")) form.setError(field, { message: codes[0] });
      }
      setMessage({ tone: "error", text: t(accountErrorKey(result.error) as "errors.failed", { min: PASSWORD_MIN_LENGTH }) });
      if (result.field === "currentPassword") form.setFocus("currentPassword");
    }),
  );

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate className="max-w-md space-y-4" data-testid="change-password-form" aria-describedby={message ? "change-password-message" : undefined}>
      <fieldset disabled={pending} className="space-y-4">
        <TextField
          label={required ? t("currentTemporary") : t("current")}
          type="password"
          autoComplete="current-password"
          dir="ltr"
          errors={errorsOf("currentPassword")}
          {...form.register("currentPassword")}
        />
        <TextField label={t("new")} type="password" autoComplete="new-password" dir="ltr" hint={t("newHint", { min: PASSWORD_MIN_LENGTH })} errors={errorsOf("newPassword")} {...form.register("newPassword")} />
        <TextField label={t("confirm")} type="password" autoComplete="new-password" dir="ltr" errors={errorsOf("confirmPassword")} {...form.register("confirmPassword")} />
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={pending} data-testid="change-password-submit">
          {pending ? t("submitting") : t("submit")}
        </Button>
      </div>
      <div aria-live="polite">
        {message && (
          <p id="change-password-message" role={message.tone === "error" ? "alert" : "status"} className={`rounded-md border p-3 text-sm ${message.tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-800"}`}>
            {message.text}
          </p>
        )}
      </div>
    </form>
  );
}
