import { describe, expect, it } from "vitest";
import { expiryOf } from "./discovery";

describe("a discovered coverage's expiry: the answer's period end (decision 126)", () => {
  it("takes the end's calendar day", () => {
    expect(expiryOf({ start: "2026-01-01", end: "2026-12-31" })).toBe("2026-12-31");
    expect(expiryOf({ end: "2027-06-30T23:59:59+03:00" })).toBe("2027-06-30");
  });

  it("leaves it blank with no end, an end that is no real day, or one before the start", () => {
    expect(expiryOf(undefined)).toBe("");
    expect(expiryOf({ start: "2026-01-01" })).toBe("");
    expect(expiryOf({ end: "2026-02-30" })).toBe("");
    expect(expiryOf({ start: "2026-06-01", end: "2026-05-31" })).toBe("");
  });
});
