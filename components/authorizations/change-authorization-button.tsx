"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { changeAuthorizationAction } from "@/lib/authorizations/browser";

/**
 * Change this authorization (docs/decisions/114): a new request repeating all its services and
 * keeping its reference, opened in the authorization form to extend it, add or remove services,
 * or resubmit what was cut or refused (with files and the visit details).
 */
export function ChangeAuthorizationButton({ authorizationId }: { authorizationId: string }) {
  const t = useTranslations("authorizations.versions");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  return (
    <div>
      <Button
        type="button"
        variant="secondary"
        busy={busy}
        data-testid="change-authorization"
        onClick={async () => {
          setBusy(true);
          setError("");
          try {
            const result = await changeAuthorizationAction(authorizationId);
            if (result.ok) return router.push(`/authorizations/new?draft=${result.id}`);
            setError(result.error === "not_changeable" ? t("notChangeable") : t("changeFailed"));
          } catch {
            setError(t("changeFailed"));
          }
          setBusy(false);
        }}
      >
        {t("change")}
      </Button>
      <p className="mt-1 text-xs text-slate-600">{t("changeHint")}</p>
      <p aria-live="polite" className="mt-1 text-sm text-red-700">
        {error}
      </p>
    </div>
  );
}
