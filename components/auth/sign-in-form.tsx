"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { loadSignInSchema, signInAction } from "@/lib/auth/browser";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import type { SignInInput } from "@/lib/auth";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";

const resolver = lazyZodResolver<SignInInput>(loadSignInSchema);

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const t = useTranslations("signIn");
  const [failure, setFailure] = useState<string>();
  const [pending, startTransition] = useTransition();
  const form = useForm<SignInInput>({
    resolver,
    defaultValues: { email: "", password: "", callbackUrl },
  });
  const fieldErrors = (name: "email" | "password") => {
    const message = form.formState.errors[name]?.message;
    return message ? [t(`errors.${message}` as "errors.emailRequired")] : undefined;
  };

  const onSubmit = form.handleSubmit((values) => {
    setFailure(undefined);
    startTransition(async () => {
      const result = await signInAction(values);
      if (result?.error) {
        setFailure(t(result.error === "invalid" ? "errors.checkFields" : "errors.generic"));
        form.resetField("password");
        form.setFocus("password");
      }
    });
  });

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate className="space-y-5" aria-describedby={failure ? "sign-in-failure" : undefined}>
      <div aria-live="assertive">
        {failure && (
          <p id="sign-in-failure" role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        )}
      </div>
      <fieldset disabled={pending} className="space-y-4">
        <TextField label={t("email")} type="email" autoComplete="username" inputMode="email" dir="ltr" errors={fieldErrors("email")} {...form.register("email")} />
        <TextField label={t("password")} type="password" autoComplete="current-password" dir="ltr" errors={fieldErrors("password")} {...form.register("password")} />
      </fieldset>
      <Button type="submit" busy={pending} className="w-full">
        {pending ? t("submitting") : t("submit")}
      </Button>
    </form>
  );
}
