"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import type { UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { LetterFiles, LetterText, LineChoices, type LineChoice } from "@/components/forms/letter-fields";
import { Button } from "@/components/ui/button";
import { sendEvidenceAction } from "@/lib/evidence/browser";

export type EvidenceLineChoice = LineChoice;

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
        {lines.length > 0 && <LineChoices id={ids} legend={t("lines")} hint={t("linesHint")} lines={lines} chosen={chosen} onChange={setChosen} testId="evidence-line" />}
        <LetterText id={`${ids}-t`} label={t("text")} hint={t("textHint")} value={text} onChange={setText} errors={fieldError("text")} testId="evidence-text" />
        <LetterFiles id={ids} title={t("files")} value={files} onChange={setFiles} errors={fieldError("attachmentIds")} />
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
