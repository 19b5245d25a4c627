"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { createClaimFromAuthorizationAction } from "@/lib/authorizations/browser";

/** Billing: makes a draft claim from this authorization and opens it in the claim form. */
export function CreateClaimButton({ authorizationId }: { authorizationId: string }) {
  const t = useTranslations("authorizations.detail");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  return (
    <div>
      <Button
        type="button"
        busy={busy}
        onClick={async () => {
          setBusy(true);
          setError("");
          try {
            const result = await createClaimFromAuthorizationAction(authorizationId);
            if (result.ok) {
              router.push(`/claims/new?draft=${result.id}`);
              return;
            }
            setError(t("createClaimFailed"));
          } catch {
            setError(t("createClaimFailed"));
          }
          setBusy(false);
        }}
      >
        {t("createClaim")}
      </Button>
      <p aria-live="polite" className="mt-1 text-sm text-red-700">
        {error}
      </p>
    </div>
  );
}
