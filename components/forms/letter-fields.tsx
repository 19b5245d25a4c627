"use client";

import { AttachmentUploader, type UploadedAttachment } from "@/components/attachments/attachment-uploader";

/*
 * The parts of a letter to the payer about a decided submission — which lines it concerns, the
 * words, the documents — shared by the appeal (components/appeals) and the information sent unasked
 * (components/evidence). Each part names its errors beside it, linked by aria-describedby.
 */

export interface LineChoice {
  sequence: number;
  label: string;
}

function ErrorList({ id, errors, className }: { id: string; errors: readonly string[]; className: string }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className={`${className} text-sm text-red-700`}>
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** The lines of the submission, each a checkbox (`data-testid` and `data-sequence` for tests). */
export function LineChoices({
  id,
  legend,
  hint,
  lines,
  chosen,
  onChange,
  errors = [],
  testId,
}: {
  id: string;
  legend: string;
  hint?: string;
  lines: readonly LineChoice[];
  chosen: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
  errors?: readonly string[];
  testId: string;
}) {
  const toggle = (sequence: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(sequence);
    else next.delete(sequence);
    onChange(next);
  };
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-describedby={errors.length ? `${id}-lines-error` : undefined}>
      <legend className="px-1 text-base font-semibold text-slate-900">{legend}</legend>
      {hint && <p className="mb-2 text-xs text-slate-500">{hint}</p>}
      <ul className="space-y-2">
        {lines.map((l) => (
          <li key={l.sequence}>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-0.5" checked={chosen.has(l.sequence)} onChange={(e) => toggle(l.sequence, e.target.checked)} data-testid={testId} data-sequence={l.sequence} />
              {l.label}
            </label>
          </li>
        ))}
      </ul>
      <ErrorList id={`${id}-lines-error`} errors={errors} className="mt-2" />
    </fieldset>
  );
}

/** A long text (4,000 characters at most) with its label, hint and errors. */
export function LetterText({ id, label, hint, value, onChange, errors, testId }: { id: string; label: string; hint: string; value: string; onChange: (value: string) => void; errors: readonly string[]; testId: string }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <label htmlFor={id} className="block text-base font-semibold text-slate-900">
        {label}
      </label>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={5}
        maxLength={4000}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={[`${id}-hint`, errors.length ? `${id}-error` : ""].filter(Boolean).join(" ")}
        className={`mt-2 block w-full rounded-md border px-3 py-2 text-sm ${errors.length ? "border-red-600" : "border-slate-300"}`}
        data-testid={testId}
      />
      <ErrorList id={`${id}-error`} errors={errors} className="mt-1" />
    </section>
  );
}

/** The documents: the uploader under its heading. */
export function LetterFiles({ id, title, value, onChange, errors }: { id: string; title: string; value: UploadedAttachment[]; onChange: (files: UploadedAttachment[]) => void; errors: string[] }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby={`${id}-files`}>
      <h2 id={`${id}-files`} className="mb-3 text-base font-semibold text-slate-900">
        {title}
      </h2>
      <AttachmentUploader value={value} onChange={onChange} errors={errors} />
    </section>
  );
}
