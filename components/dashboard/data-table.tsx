import Link from "next/link";
import type { TableModel } from "@/lib/dashboard";
import { DataTable as Table, type Column } from "@/components/ui/data-table";

/** The accessible table view of a widget: each cell carries, as `data-value`, the value the CSV export writes. */
export function DataTable({ table, caption }: { table: TableModel; caption: string }) {
  const columns: Column<number>[] = table.columns.map((name, i) => ({
    id: String(i),
    header: name,
    rowHeader: i === 0,
    align: i < Math.max(1, table.textColumns) ? "start" : "end",
    className: `px-2 py-1.5 text-slate-800 ${i === 0 ? "font-normal" : i < table.textColumns ? "" : "tabular-nums"}`,
    cellProps: (r) => ({ "data-value": table.data[r]?.[i] }),
    cell: (r) =>
      i === 0 && table.links?.[r] ? (
        <Link href={table.links[r]!} className="text-sky-700 underline-offset-2 hover:underline" data-testid="dashboard-row-link">
          {table.rows[r]?.[i]}
        </Link>
      ) : (
        table.rows[r]?.[i]
      ),
  }));
  return (
    <Table
      label={caption}
      testId={`dashboard-table-${table.name}`}
      columns={columns}
      rows={table.rows.map((_, r) => r)}
      rowKey={String}
      rowProps={() => ({ className: "" })}
      maxHeight=""
      dense
    />
  );
}
