"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/auth";
import type { CredentialsNamespace, RevokeAction } from "./types";

/** Revokes one credential after a confirmation; effective for the very next API request. */
export function RevokeButton({ id, name, action, namespace }: { id: string; name: string; action: RevokeAction; namespace: CredentialsNamespace }) {
  const t = useTranslations(namespace);
  const [state, formAction, pending] = useActionState<ActionResult | undefined, FormData>(action, undefined);
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (!window.confirm(t("confirmRevoke", { name }))) event.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="danger" className="px-3 py-1 text-xs" busy={pending} aria-label={`${t("revoke")} — ${name}`}>
        {pending ? t("revoking") : t("revoke")}
      </Button>
      {state && !state.ok && (
        <p role="alert" className="mt-1 text-xs text-red-800">
          {t(state.error === "unauthorized" || state.error === "forbidden" ? "errors.forbidden" : "errors.failed")}
        </p>
      )}
    </form>
  );
}
