import { env } from "@/lib/env";

/**
 * Days and instants in the clinic's time zone (CLINIC_TIME_ZONE): the one place that answers
 * "what day is it at the clinic" and "when does that day begin", for pages, filters, the
 * dashboard and the APIs alike.
 */

/** The calendar day (YYYY-MM-DD) it is at an instant (default now) in the clinic's time zone. */
export function clinicToday(timeZone: string = env().CLINIC_TIME_ZONE, now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** Offset of a time zone from UTC at a given instant, in milliseconds (east positive). */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The UTC instant at which a calendar day (YYYY-MM-DD) begins in the clinic's time zone, or
 * undefined if the text is not a real date. Filters by day use this so that "today" means the
 * clinic's today, not UTC's.
 */
export function startOfZonedDay(day: string, timeZone: string): Date | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const guess = Date.UTC(y, mo - 1, d);
  const check = new Date(guess);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  let instant = guess - zoneOffsetMs(new Date(guess), timeZone);
  // Second pass for days on which the offset changes (daylight saving).
  instant = guess - zoneOffsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}
