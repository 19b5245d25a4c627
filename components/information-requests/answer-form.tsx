"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { AttachmentUploader, type UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { Button } from "@/components/ui/button";
import { answerInformationRequestAction, loadAnswerSchema } from "@/lib/information-requests/browser";

const KNOWN_ERRORS = ["empty", "already_answered", "attachments", "platform", "not_found", "forbidden"] as const;

/**
 * The answer to a payer's information request: text and/or documents (the prior-authorization
 * upload rules), sent as a Communication. The page refreshes itself (live event) afterwards.
 */
export function AnswerForm({ id }: { id: string }) {
  const t = useTranslations("informationRequests.answer");
  const router = useRouter();
  const textId = useId();
  const hintId = useId();
  const errorId = useId();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<UploadedAttachment[]>([]);
  const [error, setError] = useState("");
  const [sent, setSent] = useState(false);
  const [pending, start] = useTransition();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const input = { id, text, attachmentIds: files.map((f) => f.id) };
    start(async () => {
      // The schema the server parses again, loaded with the first answer (not in first-load JS).
      // A chunk that does not arrive is a failed attempt to try again, not a broken page.
      const schema = await loadAnswerSchema().catch(() => undefined);
      if (!schema) {
        setError(t("errors.failed"));
        return;
      }
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        setError(t("errors.empty"));
        return;
      }
      setError("");
      const result = await answerInformationRequestAction(parsed.data);
      if (result.ok) {
        setSent(true);
        router.refresh();
        return;
      }
      const code = (KNOWN_ERRORS as readonly string[]).includes(result.error) ? result.error : "failed";
      setError(t(`errors.${code}`, { reason: result.detail ?? "" }));
    });
  };

  if (sent) {
    return (
      <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="answer-sent">
        {t("sent")}
      </p>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-3" data-testid="answer-form" aria-label={t("title")}>
      <fieldset disabled={pending} className="space-y-3">
        <div>
          <label htmlFor={textId} className="block text-sm font-medium text-slate-800">
            {t("text")}
          </label>
          <p id={hintId} className="text-xs text-slate-600">
            {t("textHint")}
          </p>
          <textarea
            id={textId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={4000}
            aria-describedby={`${hintId}${error ? ` ${errorId}` : ""}`}
            aria-invalid={error ? true : undefined}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
            data-testid="answer-text"
          />
        </div>
        <div>
          <p className="mb-1 text-sm font-medium text-slate-800">{t("attachments")}</p>
          <AttachmentUploader value={files} onChange={setFiles} disabled={pending} />
        </div>
      </fieldset>
      <p id={errorId} role="alert" className="text-sm text-red-700">
        {error}
      </p>
      <Button type="submit" busy={pending} data-testid="answer-send">
        {t("send")}
      </Button>
    </form>
  );
}
