import { describe, expect, it } from "vitest";
import { currencySymbol, formatMoney } from "./index";

describe("one currency form per language", () => {
  it("names the currency in headings exactly as the amounts write it", () => {
    expect(currencySymbol("en")).toBe("SAR");
    expect(formatMoney(123450, "en")).toContain(currencySymbol("en"));
    expect(currencySymbol("ar")).toMatch(/^ر\.س/);
    expect(formatMoney(123450, "ar")).toContain(currencySymbol("ar"));
  });

  it("falls back to the code for a currency Intl does not know", () => {
    expect(currencySymbol("en", "not-a-currency")).toBe("not-a-currency");
  });
});
