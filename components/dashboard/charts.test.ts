import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AXIS_TICKS, valueScale } from "./charts";

describe("chart value axes", () => {
  it("the top labelled tick is at or above the largest value: any count, amount (to the halala) or rate", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 100_000_000_000 }).map((halalas) => halalas / 100), fc.double({ min: 0, max: 100, noNaN: true }).map((rate) => Math.round(rate * 10) / 10)), (max) => {
        const ticks = valueScale(max).ticks(AXIS_TICKS);
        expect(ticks[0]).toBe(0);
        expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
        expect(ticks.length).toBeLessThanOrEqual(AXIS_TICKS + 3);
      }),
      { numRuns: 2000 },
    );
  });

  it("the dashboard's case: a day of SAR 8,970 gets an axis to 10K, not one that stops at 8K", () => {
    expect(valueScale(8970).ticks(AXIS_TICKS)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    expect(valueScale(0).ticks(AXIS_TICKS).at(-1)).toBe(1);
    expect(valueScale(100).ticks(AXIS_TICKS)).toEqual([0, 20, 40, 60, 80, 100]);
  });
});
