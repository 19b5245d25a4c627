import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvDocument } from "./index";

describe("csvCell: formula injection neutralised, numbers kept", () => {
  it.each([
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ["=HYPERLINK(\"http://evil.example\",\"x\")", "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\""],
    ["+966500000000", "'+966500000000"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "\"'\r=1+1\""],
    ["-", "'-"],
    ["-1+1", "'-1+1"],
    ["- 5", "'- 5"],
    ["-12.50e3", "'-12.50e3"],
  ])("%j -> %j", (raw, written) => {
    expect(csvCell(raw)).toBe(written);
  });

  it.each(["-12.50", "12.50", "0", "-0.01", "3", "1500000.00"])("keeps the number %s", (n) => {
    expect(csvCell(n)).toBe(n);
  });

  it("leaves ordinary text alone and quotes commas and quotes", () => {
    expect(csvCell("Rimal Insurance")).toBe("Rimal Insurance");
    expect(csvCell("شركة الرمال")).toBe("شركة الرمال");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(null)).toBe("");
    expect(csvCell(-12.5)).toBe("-12.5");
  });

  it("property: no written cell begins, once its quotes are read, with a formula character unless it is a plain number", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n").chain((c) => fc.string().map((s) => c + s))), (raw) => {
        const written = csvCell(raw);
        const read = written.startsWith('"') ? written.slice(1, -1).replace(/""/g, '"') : written;
        expect(/^[=+\-@\t\r\n]/.test(read) && !/^-?\d+(\.\d+)?$/.test(read)).toBe(false);
        // Nothing is lost: the apostrophe is the only addition.
        expect(read === raw || read === `'${raw}`).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("csvDocument", () => {
  it("writes a BOM, CRLF lines and neutralised cells", () => {
    expect(csvDocument([["insurer", "amount"], ["=cmd|' /C calc'!A0", "-12.50"]])).toBe("\uFEFFinsurer,amount\r\n'=cmd|' /C calc'!A0,-12.50\r\n");
  });
});
