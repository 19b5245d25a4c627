"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import type { UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { LetterFiles, LetterText, LineChoices, type LineChoice } from "@/components/forms/letter-fields";
import { Button } from "@/components/ui/button";
import { fileAppealAction } from "@/lib/claims/browser";
import { appealPrescriptionAction } from "@/lib/prescriptions/browser";

export type AppealLineChoice = LineChoice;

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
        <LineChoices id={ids} legend={t("lines")} lines={lines} chosen={chosen} onChange={setChosen} errors={fieldError("sequences")} testId="appeal-line" />
        <LetterText id={`${ids}-j`} label={t("justification")} hint={t("justificationHint")} value={justification} onChange={setJustification} errors={fieldError("justification")} testId="appeal-justification" />
        <LetterFiles id={ids} title={t("files")} value={files} onChange={setFiles} errors={fieldError("attachmentIds")} />
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
