import { DataTable, type DataTableProps } from "./data-table";
import { sortRows } from "./sort-rows";

/**
 * A DataTable whose rows are sorted by TanStack Table's headless core before they render
 * (docs/decisions/065-ui-primitives.md). Server pages use it: the sort runs on the server and the
 * browser receives no table code; the sort comes from the page's `?sort=&dir=`.
 */
export function SortableTable<Row>(props: DataTableProps<Row> & { sort: NonNullable<DataTableProps<Row>["sort"]> }) {
  return <DataTable {...props} rows={sortRows(props.rows, [...props.columns], props.sort.state)} />;
}
