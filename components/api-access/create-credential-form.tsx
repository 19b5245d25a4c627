"use client";

import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { SecretOnce } from "./secret-once";
import type { ApiAccessAction, ApiAccessActionState } from "./types";

/**
 * Creates an API key or an OAuth client. The new secret is shown once, in the panel below the
 * form, until the administrator dismisses it; it is never put in the URL or stored by the page.
 */
export function CreateCredentialForm({ kind, action, defaultEnvironment }: { kind: "key" | "client"; action: ApiAccessAction; defaultEnvironment: "sandbox" | "production" }) {
  const t = useTranslations("apiAccess");
  const [state, formAction, pending] = useActionState<ApiAccessActionState, FormData>(action, { status: "idle" });
  const [dismissed, setDismissed] = useState<ApiAccessActionState>();
  const error = state.status === "error" ? state : undefined;
  const created = state.status === "created" && dismissed !== state ? state : undefined;
  const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm";

  return (
    <div>
      <form action={formAction} className="grid grid-cols-1 gap-4 sm:grid-cols-3 sm:items-start">
        <fieldset disabled={pending} className="contents">
          <legend className="sr-only">{kind === "key" ? t("keys.create") : t("clients.create")}</legend>
          <TextField
            name="name"
            label={t("form.name")}
            hint={t("form.nameHelp")}
            required
            maxLength={100}
            autoComplete="off"
            errors={error?.field === "name" ? [t("errors.name")] : undefined}
          />
          <div>
            <label className="block text-sm font-medium text-slate-800">
              {t("form.environment")}
              <select name="environment" defaultValue={defaultEnvironment} className={select}>
                <option value="sandbox">{t("environments.sandbox")}</option>
                <option value="production">{t("environments.production")}</option>
              </select>
            </label>
          </div>
          <fieldset>
            <legend className="block text-sm font-medium text-slate-800">{t("form.scope")}</legend>
            <label className="mt-2 flex items-center gap-2 text-sm">
              <input type="checkbox" name="scope" value="claims:read" defaultChecked className="size-4" />
              <span>{t("form.scopeClaimsRead")}</span>
            </label>
          </fieldset>
          <div className="sm:col-span-3">
            <Button type="submit" busy={pending}>
              {pending ? t("creating") : kind === "key" ? t("keys.create") : t("clients.create")}
            </Button>
          </div>
        </fieldset>
      </form>
      <div aria-live="polite" className="mt-4">
        {error && error.field !== "name" && (
          <p role="alert" className="text-sm text-red-800">
            {error.detail ?? t(`errors.${error.error === "unauthorized" || error.error === "forbidden" ? "forbidden" : error.error === "invalid" ? "invalid" : "failed"}`)}
          </p>
        )}
        {created && <SecretOnce created={created} onDone={() => setDismissed(created)} />}
      </div>
    </div>
  );
}
