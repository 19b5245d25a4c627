import { useId, type SelectHTMLAttributes } from "react";

/** Field-level error list and hint wiring shared by the front-desk forms (same pattern as ui/field). */
export function FieldMessages({ id, hint, errors, hintTone = "muted" }: { id: string; hint?: React.ReactNode; errors?: React.ReactNode[]; hintTone?: "muted" | "ok" }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className={`mt-1 text-xs ${hintTone === "ok" ? "font-medium text-emerald-800" : "text-slate-500"}`}>
          {hint}
        </p>
      )}
      {errors?.length ? (
        <ul id={`${id}-error`} className="mt-1 space-y-0.5 text-sm text-red-700">
          {errors.map((e, i) => (
            <li key={i} className="flex gap-1.5">
              <span aria-hidden>⚠</span>
              <span>{e}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function describedBy(id: string, hint: unknown, errors: unknown[] | undefined): string | undefined {
  return [hint ? `${id}-hint` : "", errors?.length ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

export const inputClasses = (invalid: boolean) =>
  [
    "mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm",
    "focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30",
    invalid ? "border-red-600" : "border-slate-300",
  ].join(" ");

/** A labelled select with hint and errors, wired for screen readers. */
export function SelectField({
  label,
  hint,
  errors,
  className = "",
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: string; errors?: React.ReactNode[] }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        {...select}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        className={inputClasses(!!errors?.length)}
      >
        {children}
      </select>
      <FieldMessages id={id} hint={hint} errors={errors} />
    </div>
  );
}

/** A form-level alert (role=alert so it is announced as soon as it appears). */
export function FormAlert({ tone = "red", children, id }: { tone?: "red" | "amber"; children: React.ReactNode; id?: string }) {
  const tones = { red: "border-red-200 bg-red-50 text-red-900", amber: "border-amber-200 bg-amber-50 text-amber-950" };
  return (
    <div id={id} role="alert" className={`rounded-md border p-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
