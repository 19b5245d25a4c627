"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { AttachmentUploader, type UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { Button } from "@/components/ui/button";
import { sendEvidenceAction } from "@/lib/evidence/browser";

export interface EvidenceLineChoice {
  sequence: number;
  label: string;
}

/**
 * "Send information to the payer" (docs/decisions/115): text and/or files about a claim or an
 * authorization, optionally naming the lines it concerns. lib/evidence checks it again and sends
 * it as a Communication about the submission; the page it came from shows it on the timeline.
 */
export function EvidenceForm({ submissionId, lines, back }: { submissionId: string; lines: EvidenceLineChoice[]; back: string }) {
  const t = useTranslations("evidence");
  const router = useRouter();
  const ids = useId();
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [text, setText] = useState("");
  const [files, setFiles] = useState<UploadedAttachment[]>([]);
  const [errors, setErrors] = useState<Partial<Record<string, string[]>>>({});
  const [formError, setFormError] = useState("");
  const [pending, start] = useTransition();
  const known = (key: string) => (t.has(`errors.${key}`) ? t(`errors.${key}` as never) : t("errors.failed"));
  const fieldError = (key: string) => (errors[key] ?? []).map(known);
  const textErrors = fieldError("text");
  const submit = () =>
    start(async () => {
      setErrors({});
      setFormError("");
      if (!text.trim() && files.length === 0) {
        setErrors({ text: ["empty"] });
        return;
      }
      try {
        const r = await sendEvidenceAction({ submissionId, text, attachmentIds: files.map((f) => f.id), sequences: [...chosen].sort((a, b) => a - b) });
        if (r.ok) {
          router.push(`${back}?evidence=${r.id}`);
          return;
        }
        if (r.fieldErrors) setErrors(r.fieldErrors);
        else setFormError(known(r.error));
      } catch {
        setFormError(known("failed"));
      }
    });
  return (
    <form
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="evidence-form"
    >
      <fieldset disabled={pending} className="space-y-5">
        {lines.length > 0 && (
          <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <legend className="px-1 text-base font-semibold text-slate-900">{t("lines")}</legend>
            <p className="mb-2 text-xs text-slate-500">{t("linesHint")}</p>
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
                      data-testid="evidence-line"
                      data-sequence={l.sequence}
                    />
                    {l.label}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <label htmlFor={`${ids}-t`} className="block text-base font-semibold text-slate-900">
            {t("text")}
          </label>
          <p id={`${ids}-t-hint`} className="mt-1 text-xs text-slate-500">
            {t("textHint")}
          </p>
          <textarea
            id={`${ids}-t`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={5}
            maxLength={4000}
            aria-invalid={textErrors.length ? true : undefined}
            aria-describedby={[`${ids}-t-hint`, textErrors.length ? `${ids}-t-error` : ""].filter(Boolean).join(" ")}
            className={`mt-2 block w-full rounded-md border px-3 py-2 text-sm ${textErrors.length ? "border-red-600" : "border-slate-300"}`}
            data-testid="evidence-text"
          />
          {textErrors.length > 0 && (
            <ul id={`${ids}-t-error`} className="mt-1 text-sm text-red-700">
              {textErrors.map((e) => (
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
        <Button type="submit" busy={pending} data-testid="evidence-submit">
          {t("submit")}
        </Button>
        <p role="alert" className="text-sm text-red-700">
          {formError}
        </p>
      </div>
    </form>
  );
}
