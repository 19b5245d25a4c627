import type { EligibilityOutcome } from "@/lib/db";

const STYLE: Record<EligibilityOutcome, { icon: string; classes: string }> = {
  in_force: { icon: "✓", classes: "bg-emerald-50 text-emerald-800 ring-emerald-300" },
  not_in_force: { icon: "✕", classes: "bg-red-50 text-red-800 ring-red-300" },
  rejected: { icon: "!", classes: "bg-amber-50 text-amber-900 ring-amber-300" },
};

/** Outcome in a list: icon + words + colour (never colour alone). */
export function OutcomeBadge({ outcome, label, code }: { outcome: EligibilityOutcome; label: string; code?: string | null }) {
  const s = STYLE[outcome];
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${s.classes}`}>
      <span aria-hidden className="font-bold">
        {s.icon}
      </span>
      {label}
      {code && (
        <span dir="ltr" className="font-mono font-normal">
          {code}
        </span>
      )}
    </span>
  );
}
