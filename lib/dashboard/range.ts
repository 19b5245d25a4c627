import { z } from "zod";
import { isCalendarDate } from "@/lib/time";

/**
 * The dashboard's date range: whole days in the clinic's time zone, `from` and `to` inclusive
 * (YYYY-MM-DD), turned into a half-open UTC interval [start, end). Default: the last 30 days.
 */
export interface DashboardRange {
  from: string;
  to: string;
  /** "day" or "week" buckets for trends. */
  bucket: "day" | "week";
  insurerId?: string;
  timeZone: string;
  start: Date;
  end: Date;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const DashboardQuerySchema = z.object({
  from: z.string().regex(DAY).refine(isCalendarDate).optional(),
  to: z.string().regex(DAY).refine(isCalendarDate).optional(),
  bucket: z.enum(["day", "week"]).optional(),
  insurer: z.string().trim().min(1).max(100).optional(),
});

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

/** Offset (ms) of a time zone from UTC at an instant. */
function offsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The UTC instant at which a local calendar date begins in a time zone. */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // Two passes settle the offset around DST changes.
  let at = guess - offsetMs(new Date(guess), timeZone);
  at = guess - offsetMs(new Date(at), timeZone);
  return new Date(at);
}

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Parses search params (invalid values fall back to the defaults); at most 366 days. */
export function parseRange(params: Record<string, string | string[] | undefined>, timeZone: string, now = new Date()): DashboardRange {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
  // Field by field: one bad value falls back alone instead of discarding the others.
  const field = <K extends keyof typeof DashboardQuerySchema.shape>(key: K) => {
    const parsed = DashboardQuerySchema.shape[key].safeParse(one(params[key]));
    return parsed.success ? (parsed.data as z.infer<typeof DashboardQuerySchema>[K]) : undefined;
  };
  const input = { from: field("from"), to: field("to"), bucket: field("bucket"), insurer: field("insurer") };
  const today = localDate(now, timeZone);
  let to = input.to ?? today;
  let from = input.from ?? addDays(to, -29);
  if (from > to) [from, to] = [to, from];
  if (addDays(from, 366) <= to) from = addDays(to, -365);
  return {
    from,
    to,
    bucket: input.bucket ?? "day",
    insurerId: input.insurer,
    timeZone,
    start: startOfLocalDay(from, timeZone),
    end: startOfLocalDay(addDays(to, 1), timeZone),
  };
}

/** The range as search params (for links and the CSV export). */
export function rangeSearch(range: Pick<DashboardRange, "from" | "to" | "bucket" | "insurerId">): string {
  const p = new URLSearchParams({ from: range.from, to: range.to, bucket: range.bucket });
  if (range.insurerId) p.set("insurer", range.insurerId);
  return p.toString();
}

/** Start of the live board's window: the top of the hour 7 days ago (the rollup is hourly). */
export function liveBoardSince(now = new Date()): Date {
  return new Date(Math.floor((now.getTime() - 7 * 86_400_000) / 3_600_000) * 3_600_000);
}
