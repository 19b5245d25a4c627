import { describe, expect, it } from "vitest";
import { cardExpiredBefore, dayAfterExpiry } from "./dates";

describe("a card's expiry against a day (decision 126)", () => {
  it("the expiry is the last day covered", () => {
    expect(cardExpiredBefore("2026-12-31", "2026-12-31")).toBe(false);
    expect(cardExpiredBefore("2026-12-31", "2027-01-01")).toBe(true);
    expect(cardExpiredBefore("2026-12-31", "2026-06-01")).toBe(false);
  });

  it("no expiry known or no day: never expired", () => {
    expect(cardExpiredBefore(null, "2027-01-01")).toBe(false);
    expect(cardExpiredBefore(undefined, "2027-01-01")).toBe(false);
    expect(cardExpiredBefore("", "2027-01-01")).toBe(false);
    expect(cardExpiredBefore("2026-12-31", "")).toBe(false);
  });

  it("a form's lines: the latest service day past the card, if any", () => {
    expect(dayAfterExpiry("2026-12-31", ["2026-12-30", "2027-01-05", "2027-01-02"])).toBe("2027-01-05");
    expect(dayAfterExpiry("2026-12-31", ["2026-12-30", "2026-12-31"])).toBeUndefined();
    expect(dayAfterExpiry("2026-12-31", [undefined, "", "not a day"])).toBeUndefined();
    expect(dayAfterExpiry(null, ["2030-01-01"])).toBeUndefined();
  });
});
