import { useId, type InputHTMLAttributes } from "react";

/**
 * A labelled input with its errors. The input points at its hint and error list through
 * aria-describedby and says aria-invalid when there is an error, so screen readers announce both.
 */
export function TextField({
  label,
  hint,
  errors,
  className = "",
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; errors?: string[] }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        {...input}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        className={[
          "mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm",
          "focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30",
          errors?.length ? "border-red-600" : "border-slate-300",
        ].join(" ")}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {errors?.length ? (
        <ul id={errorId} className="mt-1 text-sm text-red-700">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
