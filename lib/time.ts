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

/** Whether year, month (1–12) and day form a day that exists (2026-02-29 and 2026-04-31 do not). */
export function isRealDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const days = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `YYYY-MM-DD` that is a real calendar day. */
export function isCalendarDate(text: string): boolean {
  const m = DAY.exec(text);
  return !!m && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * Text shaped like a FHIR date, dateTime or instant (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a
 * date-time with hours and minutes) — the shapes PostgreSQL and the platform would read as a time.
 */
const DATE_LIKE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

/**
 * For text shaped like a date or date-time: whether it names a moment that exists (month 1–12,
 * a day the month has, hours 0–23, minutes and seconds 0–59, a zone offset within ±23:59).
 * Text of any other shape is not a date and is reported as fine.
 */
export function isPossibleDateText(text: string): boolean {
  if (text.length < 7 || text.length > 40) return true;
  const m = DATE_LIKE.exec(text);
  if (!m) return true;
  const [, y, mo, d, hh, mi, ss, zone] = m;
  if (mo === undefined) return true;
  if (Number(mo) < 1 || Number(mo) > 12) return false;
  if (d !== undefined && !isRealDay(Number(y), Number(mo), Number(d))) return false;
  if (hh !== undefined && (Number(hh) > 23 || Number(mi) > 59 || (ss !== undefined && Number(ss) > 59))) return false;
  if (zone && zone !== "Z") {
    const digits = zone.replace(":", "");
    if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return false;
  }
  return true;
}

/**
 * Lets the event loop run timers and other requests' I/O before the caller goes on (a macrotask,
 * not a microtask: an awaited PGlite query resolves without ever leaving the microtask queue, so
 * a long chain of them holds every other request). Heavy work calls it between its steps
 * (docs/decisions/093).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
