import type { ReactNode } from "react";

/**
 * The frame every table sits in (docs/decisions/065-ui-primitives.md): a labelled, focusable scroll
 * area, so a table wider than the screen scrolls inside it (by keyboard too: Tab to it, then the
 * arrow keys) and never makes the page scroll sideways; the header row stays in view while a long
 * table scrolls. Logical properties only, so the frame mirrors in Arabic.
 */
export function TableFrame({
  label,
  children,
  testId,
  className = "",
  tableClassName = "",
  captionHidden = true,
  maxHeight = "max-h-[70vh]",
  stack = true,
}: {
  /** Names the scroll region and the table (its caption). */
  label: string;
  children: ReactNode;
  testId?: string;
  className?: string;
  tableClassName?: string;
  captionHidden?: boolean;
  /** The region's height limit (the header sticks within it); "" for none. */
  maxHeight?: string;
  /**
   * On a phone (< 640 px) each row becomes a card, each cell a line named by its data-label
   * (app/globals.css `.stack-table`, docs/decisions/106-every-amount-in-view.md); false keeps the grid.
   */
  stack?: boolean;
}) {
  return (
    // A scrollable region must be reachable by keyboard (axe scrollable-region-focusable); a named
    // group, not a region landmark, so a table inside a section of the same name adds no duplicate
    // landmark. Its inline size is contained: a wide table never widens the grid or card around it
    // (and with it the page) but scrolls inside; positioned, so visually hidden labels in the table
    // (position: absolute) scroll with it instead of widening the page.
    <div role="group" aria-label={label} tabIndex={0} className={`relative overflow-auto [contain:inline-size] focus-visible:outline-2 focus-visible:outline-brand-600 print:max-h-none print:overflow-visible ${maxHeight} ${className}`}>
      <table className={`min-w-full divide-y divide-slate-200 text-sm ${stack ? "stack-table" : ""} ${tableClassName}`} data-testid={testId}>
        <caption className={captionHidden ? "sr-only" : "px-4 py-3 text-start text-sm font-semibold text-slate-900"}>{label}</caption>
        {children}
      </table>
    </div>
  );
}

/** The header row's look: sticky at the top of the frame, on an opaque background. */
export const theadClasses = "sticky top-0 z-10 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600";
export const thClasses = (align: "start" | "end" | "center" = "start", dense = false) => `${dense ? "px-2 py-1.5" : "px-4 py-3"} ${align === "end" ? "text-end" : align === "center" ? "text-center" : "text-start"}`;

/** One row across the whole table saying there is nothing to show. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-4 py-8 text-center text-slate-500" data-testid="table-empty" data-label="">
        {children}
      </td>
    </tr>
  );
}
