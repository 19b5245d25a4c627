import { describe, expect, it } from "vitest";
import { sortFromParams, sortHref, sortRows } from "./sort-rows";

const rows = [
  { name: "b10", amount: 5, at: new Date("2026-01-02") },
  { name: "b9", amount: 50, at: null },
  { name: "a", amount: null, at: new Date("2026-01-01") },
];
const columns = [
  { id: "name", sortValue: (r: (typeof rows)[number]) => r.name },
  { id: "amount", sortValue: (r: (typeof rows)[number]) => r.amount },
  { id: "at", sortValue: (r: (typeof rows)[number]) => r.at },
  { id: "plain" },
];

describe("sortRows", () => {
  it("sorts text in natural order both ways", () => {
    expect(sortRows(rows, columns, { by: "name", desc: false }).map((r) => r.name)).toEqual(["a", "b9", "b10"]);
    expect(sortRows(rows, columns, { by: "name", desc: true }).map((r) => r.name)).toEqual(["b10", "b9", "a"]);
  });
  it("sorts numbers and dates as numbers, empty values last either way", () => {
    expect(sortRows(rows, columns, { by: "amount", desc: false }).map((r) => r.amount)).toEqual([5, 50, null]);
    expect(sortRows(rows, columns, { by: "amount", desc: true }).map((r) => r.amount)).toEqual([50, 5, null]);
    expect(sortRows(rows, columns, { by: "at", desc: true }).map((r) => r.name)).toEqual(["b10", "a", "b9"]);
  });
  it("leaves the order alone without a sort or for a column that cannot sort", () => {
    expect(sortRows(rows, columns, undefined)).toBe(rows);
    expect(sortRows(rows, columns, { by: "plain", desc: false })).toBe(rows);
  });
});

describe("sort parameters", () => {
  it("accepts only sortable columns", () => {
    expect(sortFromParams({ sort: "name", dir: "desc" }, ["name"])).toEqual({ by: "name", desc: true });
    expect(sortFromParams({ sort: "evil" }, ["name"])).toBeUndefined();
    expect(sortFromParams({ sort: ["name", "x"] }, ["name"])).toBeUndefined();
  });
  it("keeps filters, drops the cursor", () => {
    expect(sortHref("/claims", { status: "queued", before: "abc", sort: "x" }, "name", true)).toBe("/claims?status=queued&sort=name&dir=desc");
  });
});
