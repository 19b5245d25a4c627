import { constructTable, createSortedRowModel, rowSortingFeature, sortFn_alphanumeric, sortFn_basic, tableFeatures } from "@tanstack/table-core";
import { storeReactivityBindings } from "@tanstack/table-core/store-reactivity-bindings";

/** A column's sort key: numbers and dates compare as numbers, text in natural (alphanumeric) order. */
export type SortValue = string | number | Date | null | undefined;

export interface SortState {
  by: string;
  desc: boolean;
}

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
});

/**
 * The rows in the order a header asked for, through TanStack Table's headless core
 * (docs/decisions/065-ui-primitives.md): empty values go last in either direction, ties keep their order.
 */
export function sortRows<Row>(rows: readonly Row[], columns: { id: string; sortValue?: (row: Row) => SortValue }[], sort: SortState | undefined): readonly Row[] {
  const column = sort && columns.find((c) => c.id === sort.by && c.sortValue);
  if (!sort || !column?.sortValue) return rows;
  const value = column.sortValue;
  const key = ({ row }: { row: Row }) => {
    const v = value(row);
    return v instanceof Date ? v.getTime() : (v ?? undefined);
  };
  const data = rows.map((row) => ({ row }));
  const numeric = data.some((r) => typeof key(r) === "number");
  const table = constructTable({
    features: { coreReactivityFeature: storeReactivityBindings(), ...features },
    data,
    columns: [{ id: column.id, accessorFn: key, sortFn: numeric ? "basic" : "alphanumeric", sortUndefined: "last" }],
    initialState: { sorting: [{ id: column.id, desc: sort.desc }] },
  });
  return table.getRowModel().rows.map((r) => r.original.row);
}

/** The sort a page's search parameters ask for (`?sort=<column>&dir=desc`), if it names a sortable column. */
export function sortFromParams(params: { sort?: string | string[]; dir?: string | string[] }, sortable: readonly string[]): SortState | undefined {
  const by = typeof params.sort === "string" ? params.sort : undefined;
  if (!by || !sortable.includes(by)) return undefined;
  return { by, desc: params.dir === "desc" };
}

/** A link to the same page sorted by a column, keeping its other parameters (filters) and dropping the page cursor. */
export function sortHref(path: string, params: Record<string, string | string[] | undefined>, by: string, desc: boolean): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (typeof v === "string" && v && !["sort", "dir", "before", "after", "cursor"].includes(k)) q.set(k, v);
  q.set("sort", by);
  if (desc) q.set("dir", "desc");
  return `${path}?${q.toString()}`;
}
