import { describe, expect, it } from "vitest";
import { isClientAbort, junkCounts, quietClientAborts } from "./junk";

describe("client aborts", () => {
  it("are recognised as Node raises them on the request stream", () => {
    const abort = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    expect(isClientAbort(abort)).toBe(true);
    expect(isClientAbort(new Error("aborted"))).toBe(false);
    expect(isClientAbort(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))).toBe(false);
    expect(isClientAbort("aborted")).toBe(false);
  });

  it("are counted instead of printed; every other error line is printed unchanged", () => {
    const printed: unknown[][] = [];
    const target = { error: (...a: unknown[]) => void printed.push(["error", ...a]), warn: (...a: unknown[]) => void printed.push(["warn", ...a]) };
    quietClientAborts(target);
    quietClientAborts(target); // once only
    const before = junkCounts().ClientAborted ?? 0;
    const abort = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    target.error(abort);
    target.error("⨯", abort);
    target.warn(abort);
    const fault = new Error("database down");
    target.error(fault);
    target.error("request failed", abort, { extra: 1 });
    expect(junkCounts().ClientAborted).toBe(before + 3);
    expect(printed).toEqual([
      ["error", fault],
      ["error", "request failed", abort, { extra: 1 }],
    ]);
  });
});
