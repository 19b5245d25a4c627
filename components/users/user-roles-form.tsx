"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button } from "@/components/ui/button";
import { PASSWORD_MIN_LENGTH, ROLE_NAMES, loadSetRolesSchema, setUserRolesAction, type SetRolesInput } from "@/lib/auth/browser";
import { accountErrorKey } from "./account-errors";

const resolver = lazyZodResolver<SetRolesInput>(loadSetRolesSchema);

/** An administrator's choice of a user's roles (decision 102): at least one; the server keeps the last administrator. */
export function UserRolesForm({ userId, roles }: { userId: string; roles: string[] }) {
  const t = useTranslations("users");
  const ta = useTranslations("account");
  const tr = useTranslations("roles");
  const router = useRouter();
  const errorId = useId();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string }>();
  const form = useForm<SetRolesInput>({ resolver, defaultValues: { userId, roles: roles as SetRolesInput["roles"] } });
  const fieldError = form.formState.errors.roles?.message ?? form.formState.errors.roles?.root?.message;

  const onSubmit = form.handleSubmit((values) =>
    start(async () => {
      setMessage(undefined);
      const result = await setUserRolesAction(values);
      if (result.ok) {
        setMessage({ tone: "ok", text: t("roles.saved") });
        router.refresh();
      } else {
        if (result.fieldErrors?.roles?.[0]) form.setError("roles", { message: result.fieldErrors.roles[0] });
        setMessage({ tone: "error", text: ta(accountErrorKey(result.error) as "errors.failed", { min: PASSWORD_MIN_LENGTH }) });
      }
    }),
  );

  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate data-testid="user-roles-form">
      <fieldset disabled={pending} aria-describedby={fieldError ? errorId : undefined}>
        <legend className="text-sm font-medium text-slate-800">{t("roles.title")}</legend>
        <p className="mt-1 text-xs text-slate-600">{t("roles.help")}</p>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {ROLE_NAMES.map((role) => (
            <label key={role} className="flex min-h-11 items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm">
              <input type="checkbox" value={role} className="size-4" aria-invalid={fieldError ? true : undefined} {...form.register("roles")} data-testid={`role-${role}`} />
              {tr(role)}
            </label>
          ))}
        </div>
        {fieldError && (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {ta(accountErrorKey(fieldError) as "errors.failed", { min: PASSWORD_MIN_LENGTH })}
          </p>
        )}
      </fieldset>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button type="submit" busy={pending} data-testid="save-roles">
          {pending ? t("roles.saving") : t("roles.save")}
        </Button>
        <p role={message?.tone === "error" ? "alert" : "status"} aria-live="polite" className={`text-sm ${message?.tone === "error" ? "text-red-800" : "text-emerald-800"}`}>
          {message?.text}
        </p>
      </div>
    </form>
  );
}
