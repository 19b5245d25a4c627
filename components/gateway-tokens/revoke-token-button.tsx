"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import type { GatewayTokenAction, GatewayTokenActionState } from "./types";

/** Revokes one token after a confirmation; effective for the very next gateway request. */
export function RevokeTokenButton({ id, name, action }: { id: string; name: string; action: GatewayTokenAction }) {
  const t = useTranslations("gatewayTokens");
  const [state, formAction, pending] = useActionState<GatewayTokenActionState, FormData>(action, { status: "idle" });
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
      {state.status === "error" && (
        <p role="alert" className="mt-1 text-xs text-red-800">
          {t(state.error === "unauthorized" || state.error === "forbidden" ? "errors.forbidden" : "errors.failed")}
        </p>
      )}
    </form>
  );
}
