import { describe, expect, it } from "vitest";
import { isCalendarDate, isPossibleDateText } from "@/lib/time";
import { decodePathSegment, hasControlCharacters, impossibleDatePath, isDecodablePath } from "./input";

describe("path segments", () => {
  it("decodes good percent-encoding and reports malformed encoding instead of throwing", () => {
    expect(decodePathSegment("a%20b")).toBe("a b");
    expect(decodePathSegment("%zz")).toBeUndefined();
    expect(decodePathSegment("%c3%28")).toBeUndefined();
    expect(isDecodablePath("/api/exchange/claims/%c3%28/status")).toBe(false);
    expect(isDecodablePath("/fhir/Patient/1000000001")).toBe(true);
  });
});

describe("control characters", () => {
  it("refuses NUL and other controls in one-line values; multiline text keeps tab and newlines", () => {
    expect(hasControlCharacters("cxc_abc\u0000")).toBe(true);
    expect(hasControlCharacters("a\tb")).toBe(true);
    expect(hasControlCharacters("a\tb\nc", { multiline: true })).toBe(false);
    expect(hasControlCharacters("a\u0007b", { multiline: true })).toBe(true);
    expect(hasControlCharacters("عيادة")).toBe(false);
  });
});

describe("real calendar dates", () => {
  it("knows which days exist", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    for (const d of ["2026-02-29", "2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "2100-02-29"]) expect(isCalendarDate(d), d).toBe(false);
  });
  it("checks date-shaped text of every FHIR form and leaves other text alone", () => {
    for (const ok of ["2026-11-21", "2026-11", "2026-11-21T23:59:59Z", "2026-11-21T10:00:00.123+03:00", "2000-02-29", "hello", "1000000001", "2026-1-1"]) expect(isPossibleDateText(ok), ok).toBe(true);
    for (const bad of ["2026-02-30", "2026-13", "2026-11-21T24:00:00Z", "2026-11-21T10:60:00Z", "2026-06-31T00:00:00Z", "2026-11-21T10:00:00+25:00"]) expect(isPossibleDateText(bad), bad).toBe(false);
  });
  it("finds the path of an impossible date in a FHIR body", () => {
    const claim = { resourceType: "Claim", created: "2026-11-21T09:00:00Z", item: [{ sequence: 1, servicedDate: "2026-11-20" }, { sequence: 2, servicedDate: "2026-02-30" }] };
    expect(impossibleDatePath(claim)).toBe("item[1].servicedDate");
    expect(impossibleDatePath({ ...claim, item: [] })).toBeUndefined();
  });
});
