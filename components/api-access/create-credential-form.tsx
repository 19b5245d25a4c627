"use client";

import { useTranslations } from "next-intl";
import { CreateSecretForm } from "@/components/credentials/create-secret-form";
import type { CreateSecretAction } from "@/components/credentials/types";
import { TextField } from "@/components/ui/field";

/** Creates an API key or an OAuth client (the shared "create, show once" form). */
export function CreateCredentialForm({ kind, action, defaultEnvironment }: { kind: "key" | "client"; action: CreateSecretAction; defaultEnvironment: "sandbox" | "production" }) {
  const t = useTranslations("apiAccess");
  const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm";
  return (
    <CreateSecretForm
      namespace="apiAccess"
      action={action}
      className="grid grid-cols-1 gap-4 sm:grid-cols-3 sm:items-start"
      submit={{ label: kind === "key" ? t("keys.create") : t("clients.create"), className: "sm:col-span-3" }}
      fields={(nameError) => (
        <>
          <legend className="sr-only">{kind === "key" ? t("keys.create") : t("clients.create")}</legend>
          <TextField name="name" label={t("form.name")} hint={t("form.nameHelp")} required maxLength={100} autoComplete="off" errors={nameError ? [t("errors.name")] : undefined} />
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
        </>
      )}
      secret={(created) =>
        created.kind === "client"
          ? {
              title: t("secret.clientTitle", { name: created.name }),
              values: [
                { label: t("secret.clientId"), value: created.clientId },
                { label: t("secret.clientSecret"), value: created.clientSecret },
              ],
            }
          : { title: t("secret.keyTitle", { name: created.name }), values: [{ label: t("secret.key"), value: created.kind === "key" ? created.key : created.token }] }
      }
    />
  );
}
