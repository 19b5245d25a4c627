import type { TableModel } from "@/lib/dashboard";

/** The accessible table view of a widget: each cell carries, as `data-value`, the value the CSV export writes. */
export function DataTable({ table, caption }: { table: TableModel; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={`dashboard-table-${table.name}`}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-start text-xs uppercase tracking-wide text-slate-500">
            {table.columns.map((c, i) => (
              <th key={c} scope="col" className={`px-2 py-1.5 font-medium ${i < Math.max(1, table.textColumns) ? "text-start" : "text-end"}`}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r} className="border-b border-slate-100 last:border-0">
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={i} data-value={table.data[r]?.[i]} scope="row" className="px-2 py-1.5 text-start font-normal text-slate-800">
                    {cell}
                  </th>
                ) : i < table.textColumns ? (
                  <td key={i} data-value={table.data[r]?.[i]} className="px-2 py-1.5 text-start text-slate-800">
                    {cell}
                  </td>
                ) : (
                  <td key={i} data-value={table.data[r]?.[i]} className="px-2 py-1.5 text-end tabular-nums text-slate-800">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
