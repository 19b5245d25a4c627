"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES, checkLimits, formatBytes } from "@/lib/attachments/browser";
import type { LimitProblem } from "@/lib/attachments";

/** An attachment already stored on the server (uploaded, or part of a reopened draft). */
export interface UploadedAttachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  /** Local object URL for an image picked in this session (thumbnail without a download). */
  localUrl?: string;
}

interface Pending {
  key: string;
  name: string;
  size: number;
  progress: number;
}

type ServerError = "tooLarge" | "unsupported" | "truncated" | "empty" | "failed" | "forbidden";

/** Sends one file as the raw request body to /api/attachments, reporting progress. */
function upload(file: File, onProgress: (fraction: number) => void): Promise<{ ok: true; attachment: UploadedAttachment } | { ok: false; error: ServerError }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/attachments");
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.setRequestHeader("x-file-name", encodeURIComponent(file.name));
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // handled below
      }
      if (xhr.status === 201 && typeof body.id === "string") {
        resolve({
          ok: true,
          attachment: { id: body.id, fileName: String(body.fileName), contentType: String(body.contentType), size: Number(body.size) },
        });
      } else if (xhr.status === 413) resolve({ ok: false, error: "tooLarge" });
      else if (xhr.status === 401 || xhr.status === 403) resolve({ ok: false, error: "forbidden" });
      // The catalogue's code is in `error`; which rule refused the file is in `reason` (app/api/attachments).
      else if (body.reason === "unsupported" || body.reason === "truncated" || body.reason === "empty") resolve({ ok: false, error: body.reason });
      else resolve({ ok: false, error: "failed" });
    };
    xhr.onerror = () => resolve({ ok: false, error: "failed" });
    xhr.send(file);
  });
}

/**
 * Supporting attachments: drop files on the zone or pick them (keyboard: the zone is a button).
 * PDF, JPEG or PNG — the server decides the type from the bytes; at most 5 files, 10 MB each,
 * 20 MB in all (checked here first, then again on the server). Progress and refusals are announced
 * through an aria-live region; a refused file never touches the rest of the form.
 */
export function AttachmentUploader({
  value,
  onChange,
  disabled,
  errors,
}: {
  value: UploadedAttachment[];
  onChange: (next: UploadedAttachment[]) => void;
  disabled?: boolean;
  errors?: React.ReactNode[];
}) {
  const t = useTranslations("attachments");
  const locale = useLocale();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [messages, setMessages] = useState<string[]>([]);
  const [status, setStatus] = useState("");
  const [dragging, setDragging] = useState(false);
  // Latest list, for uploads that finish after other changes.
  const current = useRef(value);
  useEffect(() => {
    current.current = value;
  }, [value]);

  const limitMessage = (problem: LimitProblem, name: string) =>
    t(`errors.${problem}`, { name, max: formatBytes(MAX_FILE_BYTES, locale), total: formatBytes(MAX_TOTAL_BYTES, locale), count: MAX_FILES });

  const addFiles = async (list: FileList | File[]) => {
    const files = Array.from(list);
    if (files.length === 0) return;
    const refused: string[] = [];
    const accepted: File[] = [];
    const sizes = [...current.current.map((a) => a.size), ...pending.map((p) => p.size)];
    for (const file of files) {
      const problem = checkLimits(sizes, file.size);
      if (problem) refused.push(limitMessage(problem, file.name));
      else {
        accepted.push(file);
        sizes.push(file.size);
      }
    }
    setMessages(refused);
    if (accepted.length === 0) {
      setStatus(refused.join(" "));
      return;
    }
    setStatus(t("uploading", { count: accepted.length }));
    await Promise.all(
      accepted.map(async (file, n) => {
        const key = `${Date.now()}-${n}-${file.name}`;
        setPending((p) => [...p, { key, name: file.name, size: file.size, progress: 0 }]);
        const result = await upload(file, (fraction) => setPending((p) => p.map((x) => (x.key === key ? { ...x, progress: fraction } : x))));
        setPending((p) => p.filter((x) => x.key !== key));
        if (result.ok) {
          const localUrl = result.attachment.contentType.startsWith("image/") ? URL.createObjectURL(file) : undefined;
          const next = [...current.current, { ...result.attachment, localUrl }];
          current.current = next;
          onChange(next);
          setStatus(t("uploaded", { name: result.attachment.fileName }));
        } else {
          const message = t(`errors.${result.error}`, { name: file.name, max: formatBytes(MAX_FILE_BYTES, locale), total: formatBytes(MAX_TOTAL_BYTES, locale), count: MAX_FILES });
          setMessages((m) => [...m, message]);
          setStatus(message);
        }
      }),
    );
  };

  const remove = (attachment: UploadedAttachment) => {
    if (attachment.localUrl) URL.revokeObjectURL(attachment.localUrl);
    const next = current.current.filter((a) => a.id !== attachment.id);
    current.current = next;
    onChange(next);
    setStatus(t("removed", { name: attachment.fileName }));
  };

  const total = value.reduce((sum, a) => sum + a.size, 0);
  const full = value.length + pending.length >= MAX_FILES;

  return (
    <fieldset className="min-w-0" data-testid="attachments">
      <legend className="text-sm font-medium text-slate-800">{t("legend")}</legend>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {t("hint", { count: MAX_FILES, max: formatBytes(MAX_FILE_BYTES, locale), total: formatBytes(MAX_TOTAL_BYTES, locale) })}
      </p>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (!disabled) void addFiles(e.dataTransfer.files);
        }}
        data-testid="dropzone"
        className={`mt-2 flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm ${
          dragging ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50"
        }`}
      >
        <span aria-hidden className="text-2xl text-slate-400">⇪</span>
        <p className="text-slate-700">{t("drop")}</p>
        <button
          type="button"
          disabled={disabled || full}
          onClick={() => inputRef.current?.click()}
          aria-describedby={`${id}-hint`}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {t("pick")}
        </button>
        <input
          ref={inputRef}
          id={`${id}-input`}
          type="file"
          multiple
          accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png"
          className="sr-only"
          tabIndex={-1}
          // Reached through the visible button only: one "Choose files" control, not two.
          aria-hidden="true"
          data-testid="file-input"
          onChange={(e) => {
            const files = e.target.files ? Array.from(e.target.files) : [];
            e.target.value = "";
            void addFiles(files);
          }}
        />
      </div>

      {(messages.length > 0 || (errors?.length ?? 0) > 0) && (
        <ul role="alert" className="mt-2 space-y-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="attachment-errors">
          {messages.map((m, i) => (
            <li key={`m${i}`}>{m}</li>
          ))}
          {errors?.map((m, i) => (
            <li key={`e${i}`}>{m}</li>
          ))}
        </ul>
      )}

      {(value.length > 0 || pending.length > 0) && (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("list")}>
          {value.map((a) => (
            <li key={a.id} className="flex items-center gap-3 rounded-md border border-slate-200 bg-white p-2" data-testid="attachment-item">
              {a.contentType.startsWith("image/") ? (
                // eslint-disable-next-line @next/next/no-img-element -- a local blob or an authenticated download, not an optimisable asset
                <img src={a.localUrl ?? `/api/attachments/${a.id}`} alt={t("thumbnail", { name: a.fileName })} className="size-14 shrink-0 rounded object-cover ring-1 ring-slate-200" />
              ) : (
                <span aria-hidden className="flex size-14 shrink-0 items-center justify-center rounded bg-red-50 text-xs font-bold text-red-700 ring-1 ring-red-200">
                  PDF
                </span>
              )}
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-900" dir="auto" title={a.fileName}>
                  {a.fileName}
                </span>
                <span className="block text-xs text-slate-500" dir="ltr">
                  {formatBytes(a.size, locale)}
                </span>
              </span>
              <button
                type="button"
                disabled={disabled}
                onClick={() => remove(a)}
                className="rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-red-50 hover:text-red-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                aria-label={t("remove", { name: a.fileName })}
              >
                ×
              </button>
            </li>
          ))}
          {pending.map((p) => (
            <li key={p.key} className="rounded-md border border-slate-200 bg-white p-2 text-sm">
              <span className="block truncate" dir="auto">
                {p.name}
              </span>
              <progress className="mt-1 h-2 w-full" max={1} value={p.progress} aria-label={t("progress", { name: p.name })} />
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs text-slate-500" dir="auto">
        {t("usage", { count: value.length, max: MAX_FILES, size: formatBytes(total, locale), total: formatBytes(MAX_TOTAL_BYTES, locale) })}
      </p>
      <p className="sr-only" aria-live="polite" data-testid="attachment-status">
        {status}
      </p>
    </fieldset>
  );
}
