"use client";

import { useTranslations } from "next-intl";
import { useActionState, useId } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { addOrgKeyAction, createOrgClientAction, revokeOrgKeyAction, setOrgClientDisabledAction } from "@/lib/api-access/browser";
import type { OrgKeyMessage } from "@/lib/api-access";
import type { ActionResult as Result } from "@/lib/auth";

type OrgKeyActionState = Result<{ message: OrgKeyMessage; detail?: string }> | undefined;
const idle: OrgKeyActionState = undefined;

/** The result of an action, announced to screen readers. */
function ActionResult({ state }: { state: OrgKeyActionState }) {
  const t = useTranslations("organizationKeys");
  if (!state) return <div aria-live="polite" className="min-h-5 text-sm" />;
  return (
    <div aria-live="polite" className="min-h-5 text-sm">
      {state.ok && (
        <p className="text-emerald-800">
          {t(`done.${state.message}`)} {state.detail && <code dir="ltr" className="font-mono text-xs">{state.detail}</code>}
        </p>
      )}
      {!state.ok && (
        <p role="alert" className="text-red-800">
          {t(`errors.${state.error === "unauthorized" || state.error === "forbidden" || state.error === "invalid" ? state.error : "failed"}`)}
          {state.detail && (
            <span dir="ltr" className="mt-1 block text-start">
              {state.detail}
            </span>
          )}
        </p>
      )}
    </div>
  );
}

export function CreateClientForm() {
  const t = useTranslations("organizationKeys");
  const [state, action, pending] = useActionState(createOrgClientAction, idle);
  return (
    <form action={action} className="space-y-3">
      <fieldset disabled={pending} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField name="clientId" label={t("clientId")} hint={t("clientIdHint")} required maxLength={100} dir="ltr" autoComplete="off" />
        <TextField name="name" label={t("clientName")} maxLength={200} />
      </fieldset>
      <Button type="submit" busy={pending}>
        {t("createClient")}
      </Button>
      <ActionResult state={state} />
    </form>
  );
}

export function AddKeyForm({ clientId }: { clientId: string }) {
  const t = useTranslations("organizationKeys");
  const [state, action, pending] = useActionState(addOrgKeyAction, idle);
  const id = useId();
  return (
    <form action={action} className="space-y-2">
      <input type="hidden" name="clientId" value={clientId} />
      <fieldset disabled={pending}>
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {t("jwk")}
        </label>
        <textarea
          id={id}
          name="jwk"
          required
          rows={4}
          dir="ltr"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          aria-invalid={state?.ok === false && state.error === "invalid" ? true : undefined}
          placeholder='{"kty":"EC","crv":"P-256","x":"…","y":"…","kid":"…"}'
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs shadow-sm"
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {t("jwkHint")}
        </p>
      </fieldset>
      <Button type="submit" variant="secondary" busy={pending}>
        {t("addKey")}
      </Button>
      <ActionResult state={state} />
    </form>
  );
}

export function RevokeKeyButton({ clientId, kid }: { clientId: string; kid: string }) {
  const t = useTranslations("organizationKeys");
  const [state, action, pending] = useActionState(revokeOrgKeyAction, idle);
  return (
    <form
      action={action}
      onSubmit={(event) => {
        if (!window.confirm(t("confirmRevoke", { kid }))) event.preventDefault();
      }}
    >
      <input type="hidden" name="clientId" value={clientId} />
      <input type="hidden" name="kid" value={kid} />
      <Button type="submit" variant="danger" className="px-2 py-1 text-xs" busy={pending} aria-label={t("revokeLabel", { kid })}>
        {t("revoke")}
      </Button>
      {state?.ok === false && <ActionResult state={state} />}
    </form>
  );
}

export function ToggleClientButton({ clientId, disabled }: { clientId: string; disabled: boolean }) {
  const t = useTranslations("organizationKeys");
  const [state, action, pending] = useActionState(setOrgClientDisabledAction, idle);
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="clientId" value={clientId} />
      <input type="hidden" name="disable" value={disabled ? "false" : "true"} />
      <Button type="submit" variant={disabled ? "secondary" : "ghost"} className="px-2 py-1 text-xs" busy={pending}>
        {disabled ? t("enableClient") : t("disableClient")}
      </Button>
      {state?.ok === false && <ActionResult state={state} />}
    </form>
  );
}
