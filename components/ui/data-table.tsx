import Link from "next/link";
import { useTranslations } from "next-intl";
import type { HTMLAttributes, ReactNode } from "react";
import { EmptyRow, TableFrame, thClasses, theadClasses } from "./table-frame";
import type { SortState, SortValue } from "./sort-rows";

export interface Column<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The value the column sorts by; a column without one does not sort. */
  sortValue?: (row: Row) => SortValue;
  align?: "start" | "end" | "center";
  /** Classes of the column's cells (padding included: the default is "px-4 py-2"). */
  className?: string;
  /** The cell heads its row (th scope="row"). */
  rowHeader?: boolean;
  /** data-testid of the column's cells. */
  testId?: string;
  /** Per-cell attributes (data-* values, a class that depends on the value). */
  cellProps?: (row: Row) => CellAttributes;
  /** Text direction of the cells (codes, amounts and IDs read left to right in Arabic too). */
  dir?: "ltr";
  /** The column's name on a phone's stacked card when the header is not plain text ("" for none). */
  label?: string;
  /** The row's key figure: first and larger on a phone's stacked card (docs/decisions/106). */
  keyFigure?: boolean;
}

type CellAttributes = { className?: string; [data: `data-${string}`]: string | number | undefined };
type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };

export interface DataTableProps<Row> {
  /** Names the table and its scroll region. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Shown in place of the rows when there are none. */
  empty?: ReactNode;
  /** The current sort and the link to another. */
  sort?: { state: SortState | undefined; href: (by: string, desc: boolean) => string };
  testId?: string;
  rowProps?: (row: Row) => RowAttributes;
  footer?: ReactNode;
  className?: string;
  maxHeight?: string;
  captionHidden?: boolean;
  /** Smaller padding (tables inside widgets and cards). */
  dense?: boolean;
  /** False: keep the grid on a phone instead of one card per row (TableFrame's `stack`). */
  stack?: boolean;
}

/**
 * The one data table (docs/decisions/065-ui-primitives.md): columns as data, an empty state, and the
 * frame's focusable scroll region and sticky header. It renders rows in the order given and loads
 * no library, so client components use it too; `SortableTable` (sortable-table.tsx) sorts first.
 * A sortable column's header is a link to the same page sorted by it (works without JavaScript,
 * says aria-sort).
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  sort,
  testId,
  rowProps,
  footer,
  className,
  maxHeight,
  captionHidden,
  dense,
  stack,
}: DataTableProps<Row>) {
  const t = useTranslations("dataTable");
  return (
    <TableFrame label={label} testId={testId} className={className} maxHeight={maxHeight} captionHidden={captionHidden} stack={stack}>
      <thead className={theadClasses}>
        <tr>
          {columns.map((c) => {
            const current = sort?.state?.by === c.id ? sort.state : undefined;
            const sortable = sort && c.sortValue;
            return (
              <th
                key={c.id}
                scope="col"
                className={thClasses(c.align, dense)}
                aria-sort={sortable ? (current ? (current.desc ? "descending" : "ascending") : "none") : undefined}
              >
                {sortable ? (
                  <Link href={sort.href(c.id, current ? !current.desc : false)} className="inline-flex items-center gap-1 uppercase hover:text-slate-900 hover:underline">
                    {c.header}
                    <span aria-hidden className="text-slate-400">
                      {current ? (current.desc ? "↓" : "↑") : "↕"}
                    </span>
                    <span className="sr-only">{t(current && !current.desc ? "sortDescending" : "sortAscending")}</span>
                  </Link>
                ) : (
                  c.header
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.length === 0 && <EmptyRow columns={columns.length}>{empty ?? t("empty")}</EmptyRow>}
        {rows.map((row) => {
          const { className: rowClass, ...attrs } = rowProps?.(row) ?? {};
          return (
            <tr key={rowKey(row)} className={rowClass ?? "hover:bg-slate-50"} {...attrs}>
              {columns.map((c) => {
                const { className: extra = "", ...data } = c.cellProps?.(row) ?? {};
                const cls = `${c.className ?? (dense ? "px-2 py-1.5" : "px-4 py-2")} ${c.align === "end" ? "text-end" : c.align === "center" ? "text-center" : c.rowHeader ? "text-start" : ""} ${extra}`;
                const Cell = c.rowHeader ? "th" : "td";
                // The column's name on a phone's stacked card (app/globals.css .stack-table).
                const phoneLabel = c.label ?? (typeof c.header === "string" ? c.header : undefined);
                return (
                  <Cell key={c.id} scope={c.rowHeader ? "row" : undefined} className={cls} dir={c.dir} data-testid={c.testId} data-label={phoneLabel} data-key={c.keyFigure ? "" : undefined} {...data}>
                    {c.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          );
        })}
      </tbody>
      {footer}
    </TableFrame>
  );
}
