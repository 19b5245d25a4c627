"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ApiAccessActionState } from "./types";

type Created = Extract<ApiAccessActionState, { status: "created" }>;

function CopyValue({ label, value }: { label: string; value: string }) {
  const t = useTranslations("apiAccess.secret");
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-3">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code dir="ltr" className="block min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-start font-mono text-sm ring-1 ring-slate-300">
          {value}
        </code>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? t("copied") : t("copy")}
        </Button>
      </div>
    </div>
  );
}

/** The new key or client secret, shown once with a warning; "Done" hides it for good. */
export function SecretOnce({ created, onDone }: { created: Created; onDone: () => void }) {
  const t = useTranslations("apiAccess.secret");
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="font-semibold text-amber-950">{created.kind === "key" ? t("keyTitle", { name: created.name }) : t("clientTitle", { name: created.name })}</p>
      <p className="mt-1 text-sm text-amber-900">{t("once")}</p>
      {created.kind === "key" ? (
        <CopyValue label={t("key")} value={created.key} />
      ) : (
        <>
          <CopyValue label={t("clientId")} value={created.clientId} />
          <CopyValue label={t("clientSecret")} value={created.clientSecret} />
        </>
      )}
      <Button type="button" className="mt-4" onClick={onDone}>
        {t("done")}
      </Button>
    </div>
  );
}
