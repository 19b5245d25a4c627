import { describe, expect, it } from "vitest";
import { addDays, startOfZonedDay, zoneOffsetMs } from "./time";

describe("time zones", () => {
  it("Riyadh is UTC+3", () => {
    expect(zoneOffsetMs(new Date("2026-11-21T00:00:00Z"), "Asia/Riyadh")).toBe(3 * 3600_000);
    expect(startOfZonedDay("2026-11-21", "Asia/Riyadh")?.toISOString()).toBe("2026-11-20T21:00:00.000Z");
  });
  it("handles daylight saving days", () => {
    expect(startOfZonedDay("2026-03-29", "Europe/Berlin")?.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(startOfZonedDay("2026-03-30", "Europe/Berlin")?.toISOString()).toBe("2026-03-29T22:00:00.000Z");
  });
  it("rejects impossible dates", () => {
    expect(startOfZonedDay("2026-02-30", "UTC")).toBeUndefined();
    expect(startOfZonedDay("21/11/2026", "UTC")).toBeUndefined();
  });
  it("adds days across month ends", () => {
    expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
  });
});
