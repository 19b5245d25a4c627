import { describe, expect, it } from "vitest";
import { screenSources } from "@/lib/testing/source-files";
import { labelDay } from "@/lib/submissions/labels";
import { clinicToday } from "@/lib/time";

/*
 * Every time on a page in the clinic's time zone and one format (decision 122). Pages format
 * through next-intl's formatter (`getFormatter` / `useFormatter`), which carries CLINIC_TIME_ZONE
 * (lib/i18n/request.ts) in the server and the browser alike; a page that formats with the
 * machine's or the browser's clock (`toLocaleTimeString()`, an `Intl.DateTimeFormat` without a
 * time zone) shows UTC on the server — "08:00" for 11:00 in Riyadh, as visits-ahead once did.
 */
const OWN_CLOCK = /\.toLocale(Date|Time)?String\(\s*\)|\.toLocale(Date|Time)String\(|new Intl\.DateTimeFormat\((?![^)]*timeZone)[^)]*\)/;

export function ownClockCalls(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return code.split("\n").filter((line) => OWN_CLOCK.test(line));
}

describe("times in the clinic's time zone, one format", () => {
  it("the check bites on the machine's clock", () => {
    expect(ownClockCalls(`t("saved", { time: new Date().toLocaleTimeString() })`)).toHaveLength(1);
    expect(ownClockCalls(`new Intl.DateTimeFormat("en-GB", { hour: "2-digit" }).format(d)`)).toHaveLength(1);
    expect(ownClockCalls(`new Intl.DateTimeFormat(locale, { day: "numeric", timeZone: "UTC" })`)).toHaveLength(0);
    expect(ownClockCalls(`format.dateTime(d, { dateStyle: "medium", timeStyle: "short" })`)).toHaveLength(0);
  });

  it("no page or component formats a time with the machine's or the browser's clock", () => {
    const found = screenSources().flatMap(({ path, text }) => ownClockCalls(text).map((line) => `${path}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it("visits ahead formats with the clinic's formatter", () => {
    const visits = screenSources().find((s) => s.path.endsWith("app/(portal)/visits/page.tsx"));
    expect(visits?.text).toMatch(/getFormatter\(\)/);
    expect(visits?.text).not.toMatch(/toISOString\(\)\.slice\(11/);
  });

  it("the helpers name the clinic's day, not UTC's", () => {
    // 22:30 UTC on 12 November is already 13 November in Riyadh (UTC+3).
    const late = new Date("2026-11-12T22:30:00Z");
    expect(clinicToday("Asia/Riyadh", late)).toBe("2026-11-13");
    expect(clinicToday("UTC", late)).toBe("2026-11-12");
    expect(labelDay(late, "en", "Asia/Riyadh", late)).toBe("Nov 13");
    expect(labelDay(late, "ar", "Asia/Riyadh", late)).toBe("13 نوفمبر");
  });
});
