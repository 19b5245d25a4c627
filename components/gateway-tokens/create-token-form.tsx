"use client";

import { useTranslations } from "next-intl";
import { CreateSecretForm } from "@/components/credentials/create-secret-form";
import type { CreateSecretAction } from "@/components/credentials/types";
import { TextField } from "@/components/ui/field";

/** Creates a gateway token (the shared "create, show once" form). */
export function CreateTokenForm({ action }: { action: CreateSecretAction }) {
  const t = useTranslations("gatewayTokens");
  return (
    <CreateSecretForm
      namespace="gatewayTokens"
      action={action}
      className="flex flex-wrap items-start gap-4"
      submit={{ label: t("create"), className: "mt-6" }}
      fields={(nameError) => (
        <TextField name="name" className="min-w-64 flex-1" label={t("form.name")} hint={t("form.nameHelp")} required maxLength={100} autoComplete="off" errors={nameError ? [t("errors.name")] : undefined} />
      )}
      secret={(created) => ({
        title: t("secret.title", { name: created.name }),
        values: [{ label: "", value: created.kind === "token" ? created.token : "" }],
        usage: (
          <>
            {t("secret.usage")} <code dir="ltr" className="rounded bg-white px-1 font-mono">Authorization: Bearer …</code>
          </>
        ),
      })}
    />
  );
}
