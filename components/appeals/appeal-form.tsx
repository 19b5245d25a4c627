"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { AttachmentUploader, type UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { Button } from "@/components/ui/button";
import { fileAppealAction } from "@/lib/claims/browser";
import { appealPrescriptionAction } from "@/lib/prescriptions/browser";

export interface AppealLineChoice {
  sequence: number;
  label: string;
}

/**
 * The appeal of a decided claim (docs/decisions/081): which denied or cut lines, the justification
 * and the supporting documents. lib/submissions checks it again and sends it as a new claim.
 */
/** What is appealed: a claim (billing) or a prescription (prescribers, docs/decisions/121) — its action and page. */
const OF = {
  claim: { action: fileAppealAction, base: "/claims" },
  prescription: { action: appealPrescriptionAction, base: "/prescriptions" },
} as const;

export function AppealForm({ claimId, lines, of = "claim" }: { claimId: string; lines: AppealLineChoice[]; of?: keyof typeof OF }) {
  const t = useTranslations("claims.appeal");
  const router = useRouter();
  const ids = useId();
  const [chosen, setChosen] = useState<Set<number>>(new Set(lines.map((l) => l.sequence)));
  const [justification, setJustification] = useState("");
  const [files, setFiles] = useState<UploadedAttachment[]>([]);
  const [errors, setErrors] = useState<Partial<Record<string, string[]>>>({});
  const [formError, setFormError] = useState("");
  const [pending, start] = useTransition();
  const known = (key: string) => (t.has(`errors.${key}`) ? t(`errors.${key}` as never) : t("errors.failed"));
  const submit = () =>
    start(async () => {
      setErrors({});
      setFormError("");
      const r = await OF[of].action({ claimId, sequences: [...chosen].sort((a, b) => a - b), justification, attachmentIds: files.map((f) => f.id) });
      if (r.ok) {
        router.push(`${OF[of].base}/${claimId}?appealed=${r.id}`);
        return;
      }
      if (r.fieldErrors) setErrors(r.fieldErrors);
      else setFormError(known(r.error));
    });
  const fieldError = (key: string) => (errors[key] ?? []).map(known);
  const justificationErrors = fieldError("justification");
  return (
    <form
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="appeal-form"
    >
      <fieldset disabled={pending} className="space-y-5">
        <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-describedby={fieldError("sequences").length ? `${ids}-lines-error` : undefined}>
          <legend className="px-1 text-base font-semibold text-slate-900">{t("lines")}</legend>
          <ul className="space-y-2">
            {lines.map((l) => (
              <li key={l.sequence}>
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5"
                    checked={chosen.has(l.sequence)}
                    onChange={(e) =>
                      setChosen((s) => {
                        const next = new Set(s);
                        if (e.target.checked) next.add(l.sequence);
                        else next.delete(l.sequence);
                        return next;
                      })
                    }
                    data-testid="appeal-line"
                    data-sequence={l.sequence}
                  />
                  {l.label}
                </label>
              </li>
            ))}
          </ul>
          {fieldError("sequences").length > 0 && (
            <ul id={`${ids}-lines-error`} className="mt-2 text-sm text-red-700">
              {fieldError("sequences").map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </fieldset>
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <label htmlFor={`${ids}-j`} className="block text-base font-semibold text-slate-900">
            {t("justification")}
          </label>
          <p id={`${ids}-j-hint`} className="mt-1 text-xs text-slate-500">
            {t("justificationHint")}
          </p>
          <textarea
            id={`${ids}-j`}
            value={justification}
            onChange={(e) => setJustification(e.target.value)}
            rows={5}
            maxLength={4000}
            aria-invalid={justificationErrors.length ? true : undefined}
            aria-describedby={[`${ids}-j-hint`, justificationErrors.length ? `${ids}-j-error` : ""].filter(Boolean).join(" ")}
            className={`mt-2 block w-full rounded-md border px-3 py-2 text-sm ${justificationErrors.length ? "border-red-600" : "border-slate-300"}`}
            data-testid="appeal-justification"
          />
          {justificationErrors.length > 0 && (
            <ul id={`${ids}-j-error`} className="mt-1 text-sm text-red-700">
              {justificationErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby={`${ids}-files`}>
          <h2 id={`${ids}-files`} className="mb-3 text-base font-semibold text-slate-900">
            {t("files")}
          </h2>
          <AttachmentUploader value={files} onChange={setFiles} errors={fieldError("attachmentIds")} />
        </section>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={pending} disabled={chosen.size === 0} data-testid="appeal-submit">
          {t("submit")}
        </Button>
        <p role="alert" className="text-sm text-red-700">
          {formError}
        </p>
      </div>
    </form>
  );
}
