import { describe, expect, it } from "vitest";
import { minorToDecimal } from "@/lib/money";
import { lineTotalMinor, parseAmountMinor, parseQuantity } from "./form-money";

describe("form money (exact)", () => {
  it("parses decimal strings to halalas without floats", () => {
    expect(parseAmountMinor("2500")).toBe(250_000);
    expect(parseAmountMinor("0.1")).toBe(10);
    expect(parseAmountMinor("0.10")).toBe(10);
    expect(parseAmountMinor("1,250.55")).toBe(125_055);
    expect(parseAmountMinor("٢٥٠٫٥")).toBe(25_050);
    for (const bad of ["", "-1", "1.234", "abc", "1e3", "1.2.3", ".5"]) expect(parseAmountMinor(bad), bad).toBeUndefined();
  });

  it("quantities are whole numbers 1–1000", () => {
    expect(parseQuantity("3")).toBe(3);
    expect(parseQuantity("1000")).toBe(1000);
    for (const bad of ["0", "1001", "1.5", "", "x"]) expect(parseQuantity(bad), bad).toBeUndefined();
  });

  it("line totals are integer products: 0.1 + 0.2 stays 30 halalas, 3 × 19.99 = 59.97", () => {
    expect((lineTotalMinor("1", "0.1") ?? 0) + (lineTotalMinor("1", "0.2") ?? 0)).toBe(30);
    expect(lineTotalMinor("3", "19.99")).toBe(5_997);
    expect(lineTotalMinor("7", "1999999.99")).toBe(1_399_999_993);
    expect(lineTotalMinor("0", "1")).toBeUndefined();
    expect(minorToDecimal(5_997)).toBe("59.97");
    expect(minorToDecimal(5)).toBe("0.05");
  });
});
