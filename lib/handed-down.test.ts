import { describe, expect, it } from "vitest";
import { handedDown } from "./handed-down";

describe("a read handed down", () => {
  it("refuses in its own words until provided, then gives what was provided — to every holder of the same name", () => {
    const one = handedDown<(n: number) => number>("test.handed-down", "nothing handed down for the test");
    expect(() => one.provided()).toThrow("nothing handed down for the test");
    const double = (n: number) => n * 2;
    one.provide(double);
    // A second bundle of the same process builds its own holder under the same name.
    expect(handedDown<(n: number) => number>("test.handed-down", "unused").provided()).toBe(double);
    one.provide(undefined);
    expect(() => one.provided()).toThrow("nothing handed down for the test");
  });
});
