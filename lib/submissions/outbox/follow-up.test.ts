import { describe, expect, it } from "vitest";
import { adaptivePollAfterMs, decisionRetryMs, DecisionRetries, MIN_POLL_AFTER_MS } from "./follow-up";

describe("follow-up pace", () => {
  it("retries a decision fetch in seconds with backoff: 1, 2, 4, 8, 16, 16 s (±20 %)", () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 20].map((n) => decisionRetryMs(n, middle))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 16_000, 16_000]);
    expect(decisionRetryMs(0, () => 0)).toBe(800);
    expect(decisionRetryMs(0, () => 1)).toBe(1_200);
  });

  it("counts failures per submission and starts over once cleared", () => {
    const retries = new DecisionRetries();
    const now = new Date("2026-11-25T10:00:00Z");
    const delays = [0, 1, 2].map(() => retries.next("a", now).getTime() - now.getTime());
    expect(delays[0]).toBeLessThanOrEqual(1_200);
    expect(delays[2]).toBeGreaterThanOrEqual(3_200);
    expect(retries.next("b", now).getTime() - now.getTime()).toBeLessThanOrEqual(1_200);
    // Never later than the silence poll.
    expect(retries.next("a", now, 200).getTime() - now.getTime()).toBe(200);
    retries.clear("a");
    expect(retries.next("a", now).getTime() - now.getTime()).toBeLessThanOrEqual(1_200);
  });

  it("spreads the silence poll over the outstanding work within the ceiling", () => {
    expect(adaptivePollAfterMs(0, 60_000)).toBe(MIN_POLL_AFTER_MS);
    expect(adaptivePollAfterMs(10, 60_000)).toBe(MIN_POLL_AFTER_MS);
    expect(adaptivePollAfterMs(300, 60_000)).toBe(36_000);
    expect(adaptivePollAfterMs(5_000, 60_000)).toBe(60_000);
    // A ceiling below the floor (tests, impatient set-ups) is kept as it is.
    expect(adaptivePollAfterMs(300, 100)).toBe(100);
  });
});
