import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePriceListCsv, parseRiyals, priceFor } from "./price-list";

const HEADER = "insurer,network,class,system,code,price,effective_from,effective_to,package,includes,authorization";

describe("price list CSV (docs/decisions/089)", () => {
  it("reads good lines and reports every bad line by number and column", () => {
    const csv = [
      HEADER,
      "payer-rimal,,,cpt,99213,250.00,2026-01-01,,no,,no",
      "payer-rimal,,,cpt,99214,abc,2026-01-01,,no,,no",
      "payer-rimal,,,nope,99215,10,2026-01-01,,no,,no",
      "payer-rimal,,,cpt,99202,10,2026-02-30,,no,,no",
      "payer-rimal,,,cpt,99203,10,2026-01-01,2025-01-01,no,,no",
      "payer-rimal,,,cpt,85025,10,2026-01-01,,maybe,,no",
      "payer-rimal,,,cpt,80053,10,2026-01-01,,no,85025,no",
      "payer-rimal,,,cpt,81001,10",
      ",,,cpt,36415,10,2026-01-01,,no,,no",
      "payer-rimal,,,cpt,99213,260.00,2026-01-01,,no,,no",
    ].join("\n");
    const { rows, errors } = parsePriceListCsv(csv);
    expect(rows.map((r) => r.code)).toEqual(["99213"]);
    expect(errors.map((e) => [e.line, e.column, e.problem])).toEqual([
      [3, "price", "price_invalid"],
      [4, "system", "system_unknown"],
      [5, "effective_from", "date_invalid"],
      [6, "effective_to", "period_inverted"],
      [7, "package", "flag_invalid"],
      [8, "includes", "includes_without_package"],
      [9, "row", "field_count"],
      [10, "insurer", "required"],
      [11, "effective_from", "duplicate"],
    ]);
  });

  it("refuses an unknown or missing column in the header", () => {
    expect(parsePriceListCsv("insurer,code,price,colour\n").errors.map((e) => e.problem)).toEqual(["column_unknown", "column_missing", "column_missing"]);
    expect(parsePriceListCsv("").errors[0]!.problem).toBe("header_missing");
  });

  it("refuses overlapping versions of one price, accepts consecutive ones", () => {
    const ok = parsePriceListCsv([HEADER, "p,,,cpt,1,1,2025-01-01,2025-12-31,no,,no", "p,,,cpt,1,2,2026-01-01,,no,,no"].join("\n"));
    expect(ok.errors).toEqual([]);
    const bad = parsePriceListCsv([HEADER, "p,,,cpt,1,1,2025-01-01,2026-03-31,no,,no", "p,,,cpt,1,2,2026-01-01,,no,,no"].join("\n"));
    expect(bad.errors.map((e) => [e.line, e.problem])).toEqual([[3, "overlap"]]);
  });

  it("reads quoted fields and riyal amounts exactly", () => {
    const { rows } = parsePriceListCsv([HEADER, 'p,,,cpt,59400,"8,000.5",2026-01-01,,yes,"99213; 99214",yes'].join("\n"));
    expect(rows).toHaveLength(0);
    const good = parsePriceListCsv([HEADER, 'p,,,cpt,59400,8000.5,2026-01-01,,yes,"99213; 99214",yes'].join("\n")).rows[0]!;
    expect([good.priceMinor, good.includes, good.isPackage, good.authorizationRequired]).toEqual([800_050, ["99213", "99214"], true, true]);
    expect([parseRiyals("0.1"), parseRiyals("1.234"), parseRiyals("-1")]).toEqual([10, undefined, undefined]);
  });

  it("prices from the version in force on the service date, the most specific first", () => {
    const { rows } = parsePriceListCsv(fs.readFileSync("contracts/demo-contracts.csv", "utf8"));
    const q = { insurerId: "payer-rimal", system: "cpt", code: "99213" };
    expect(priceFor(rows, { ...q, date: "2025-06-01" })!.priceMinor).toBe(23_000);
    expect(priceFor(rows, { ...q, date: "2026-06-01" })!.priceMinor).toBe(25_000);
    expect(priceFor(rows, { ...q, date: "2019-06-01" })).toBeUndefined();
    expect(priceFor(rows, { insurerId: "payer-rimal", system: "cpt", code: "99214", coverageClass: "VIP", date: "2026-06-01" })!.priceMinor).toBe(42_000);
    expect(priceFor(rows, { insurerId: "payer-rimal", system: "cpt", code: "99214", coverageClass: "A", date: "2026-06-01" })!.priceMinor).toBe(35_000);
    expect(priceFor(rows, { insurerId: "payer-wadi", network: "wadi-restricted", system: "cpt", code: "99213", date: "2026-06-01" })!.priceMinor).toBe(20_000);
  });

  it("the demo contract file shipped in the repository has no bad line", () => {
    expect(parsePriceListCsv(fs.readFileSync("contracts/demo-contracts.csv", "utf8")).errors).toEqual([]);
  });
});
