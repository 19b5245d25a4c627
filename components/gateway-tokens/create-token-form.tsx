"use client";

import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { GatewayTokenAction, GatewayTokenActionState } from "./types";

/**
 * Creates a gateway token. The token is shown once, below the form, until the administrator
 * dismisses it; it is never put in the URL or kept by the page.
 */
export function CreateTokenForm({ action }: { action: GatewayTokenAction }) {
  const t = useTranslations("gatewayTokens");
  const [state, formAction, pending] = useActionState<GatewayTokenActionState, FormData>(action, { status: "idle" });
  const [dismissed, setDismissed] = useState<GatewayTokenActionState>();
  const [copied, setCopied] = useState(false);
  const error = state.status === "error" ? state : undefined;
  const created = state.status === "created" && dismissed !== state ? state : undefined;

  return (
    <div>
      <form action={formAction} className="flex flex-wrap items-start gap-4" onSubmit={() => setCopied(false)}>
        <TextField
          name="name"
          className="min-w-64 flex-1"
          label={t("form.name")}
          hint={t("form.nameHelp")}
          required
          maxLength={100}
          autoComplete="off"
          disabled={pending}
          errors={error?.field === "name" ? [t("errors.name")] : undefined}
        />
        <Button type="submit" className="mt-6" busy={pending}>
          {pending ? t("creating") : t("create")}
        </Button>
      </form>
      <div aria-live="polite" className="mt-4">
        {error && error.field !== "name" && (
          <p role="alert" className="text-sm text-red-800">
            {t(`errors.${error.error === "unauthorized" ? "forbidden" : error.error}`)}
          </p>
        )}
        {created && (
          <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4">
            <p className="font-semibold text-amber-950">{t("secret.title", { name: created.name })}</p>
            <p className="mt-1 text-sm text-amber-900">{t("secret.once")}</p>
            <div className="mt-3 flex flex-wrap items-center gap-2">
              <code dir="ltr" className="block min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-start font-mono text-sm ring-1 ring-slate-300">
                {created.token}
              </code>
              <Button type="button" variant="secondary" onClick={() => void navigator.clipboard?.writeText(created.token).then(() => setCopied(true))}>
                {copied ? t("secret.copied") : t("secret.copy")}
              </Button>
            </div>
            <p className="mt-2 text-xs text-amber-900">
              {t("secret.usage")} <code dir="ltr" className="rounded bg-white px-1 font-mono">Authorization: Bearer …</code>
            </p>
            <Button type="button" variant="secondary" className="mt-3" onClick={() => setDismissed(created)}>
              {t("secret.done")}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
