"use client";

import { buttonClasses } from "@/components/ui/button";

/** "Print": the browser's print of this page (its print styles and PrintSheet frame it). */
export function PrintButton({ label, testId = "print-button" }: { label: string; testId?: string }) {
  return (
    <button type="button" onClick={() => window.print()} className={buttonClasses("secondary", "no-print")} data-testid={testId}>
      <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 9V3h12v6M6 18H4a2 2 0 0 1-2-2v-5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2h-2M6 14h12v7H6z" />
      </svg>
      {label}
    </button>
  );
}
