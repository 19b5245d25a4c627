"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { copyClaimAction, fixClaimAction, retryClaimAction } from "@/lib/claims/browser";

/** Copy (new draft), fix and resubmit (rejected → new draft linked to it), retry (failed). */
export function ClaimActions({ id, status, compact = false }: { id: string; status: string; compact?: boolean }) {
  const t = useTranslations("claims.actions");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState("");
  const run = (kind: "copy" | "fix" | "retry") =>
    start(async () => {
      setError("");
      if (kind === "retry") {
        const r = await retryClaimAction(id);
        if (r.ok) router.refresh();
        else setError(t("failed"));
        return;
      }
      const r = kind === "fix" ? await fixClaimAction(id) : await copyClaimAction(id);
      if (r.ok) router.push(`/claims/new?draft=${r.id}`);
      else setError(t("failed"));
    });
  return (
    <div className="no-print flex flex-wrap items-center gap-2">
      {status === "rejected" && (
        <Button type="button" busy={pending} onClick={() => run("fix")} data-testid="fix-claim">
          {t("fix")}
        </Button>
      )}
      {status === "failed" && (
        <Button type="button" busy={pending} onClick={() => run("retry")} data-testid="retry-claim">
          {t("retry")}
        </Button>
      )}
      {!compact && status !== "draft" && (
        <Button type="button" variant="secondary" busy={pending} onClick={() => run("copy")} data-testid="copy-claim">
          {t("copy")}
        </Button>
      )}
      <span role="alert" className="text-sm text-red-700">
        {error}
      </span>
    </div>
  );
}
