"use client";

import { useTranslations } from "next-intl";
import { useActionState, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/auth";
import type { CreatedSecret, CreateSecretAction, CredentialsNamespace } from "./types";

/**
 * "Create, show once": the form posts to a create action; the new secret appears below it, with a
 * copy button per value, until the administrator dismisses it — never in the URL, never kept by
 * the page. The fields are the caller's (`fields(error)`), the rest is the same for every kind.
 */
export function CreateSecretForm({
  namespace,
  action,
  className,
  fields,
  submit,
  secret,
}: {
  namespace: CredentialsNamespace;
  action: CreateSecretAction;
  className: string;
  fields: (nameError: boolean, pending: boolean) => ReactNode;
  submit: { label: string; className?: string };
  secret: (created: CreatedSecret) => { title: string; values: { label: string; value: string }[]; usage?: ReactNode };
}) {
  const t = useTranslations(namespace);
  const [state, formAction, pending] = useActionState<ActionResult<CreatedSecret> | undefined, FormData>(action, undefined);
  const [dismissed, setDismissed] = useState<unknown>();
  const error = state && !state.ok ? state : undefined;
  const created = state?.ok && dismissed !== state ? state : undefined;
  const shown = created ? secret(created) : undefined;

  return (
    <div>
      <form action={formAction} className={className}>
        <fieldset disabled={pending} className="contents">
          {fields(error?.field === "name", pending)}
          <div className={submit.className}>
            <Button type="submit" busy={pending}>
              {pending ? t("creating") : submit.label}
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
        {created && shown && (
          <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4">
            <p className="font-semibold text-amber-950">{shown.title}</p>
            <p className="mt-1 text-sm text-amber-900">{t("secret.once")}</p>
            {shown.values.map((v) => (
              <CopyValue key={v.label || v.value} namespace={namespace} label={v.label} value={v.value} />
            ))}
            {shown.usage && <p className="mt-2 text-xs text-amber-900">{shown.usage}</p>}
            <Button type="button" className="mt-4" onClick={() => setDismissed(created)}>
              {t("secret.done")}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

function CopyValue({ namespace, label, value }: { namespace: CredentialsNamespace; label: string; value: string }) {
  const t = useTranslations(namespace);
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-3">
      {label && <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</p>}
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code dir="ltr" className="block min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-start font-mono text-sm ring-1 ring-slate-300">
          {value}
        </code>
        <Button type="button" variant="secondary" onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
          {copied ? t("secret.copied") : t("secret.copy")}
        </Button>
      </div>
    </div>
  );
}
