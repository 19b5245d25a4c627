"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { authorizationFromVisitAction } from "@/lib/visits/browser";

/** One click: a prior-authorization draft with the visit's planned services, opened in the form. */
export function AuthorizationButton({ visitId }: { visitId: string }) {
  const t = useTranslations("visits.links");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      aria-busy={busy || undefined}
      className="text-start font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900 disabled:opacity-60"
      onClick={async () => {
        setBusy(true);
        const result = await authorizationFromVisitAction({ visitId });
        if (result.ok) router.push(`/authorizations/new?draft=${result.draftId}`);
        else setBusy(false);
      }}
    >
      {busy ? t("creating") : t("authorization")}
    </button>
  );
}
