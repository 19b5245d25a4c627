import type { ButtonHTMLAttributes } from "react";

type Variant = "primary" | "secondary" | "ghost" | "danger";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
  ghost: "text-slate-700 hover:bg-slate-100",
  danger: "bg-red-700 text-white hover:bg-red-800",
};

export function buttonClasses(variant: Variant = "primary", extra = ""): string {
  return [
    "inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
    "disabled:cursor-not-allowed transition-colors",
    VARIANTS[variant],
    extra,
  ].join(" ");
}

export function Button({
  variant = "primary",
  busy = false,
  className = "",
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button {...props} aria-busy={busy || undefined} disabled={props.disabled || busy} className={buttonClasses(variant, className)}>
      {busy && <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent" />}
      {children}
    </button>
  );
}
