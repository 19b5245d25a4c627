import { z } from "zod";
import { addDays, clinicToday, isCalendarDate, startOfZonedDay } from "@/lib/time";

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

/** The longest range a manager may pick: 24 months (731 clinic days, a leap day included). */
export const MAX_RANGE_DAYS = 731;

/** Parses search params (invalid values fall back to the defaults); at most 24 months (MAX_RANGE_DAYS), the latest kept. */
export function parseRange(params: Record<string, string | string[] | undefined>, timeZone: string, now = new Date()): DashboardRange {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
  // Field by field: one bad value falls back alone instead of discarding the others.
  const field = <K extends keyof typeof DashboardQuerySchema.shape>(key: K) => {
    const parsed = DashboardQuerySchema.shape[key].safeParse(one(params[key]));
    return parsed.success ? (parsed.data as z.infer<typeof DashboardQuerySchema>[K]) : undefined;
  };
  // A day that does not exist (2026-02-31) falls back like any other bad value.
  const day = (key: "from" | "to") => {
    const value = field(key);
    return value && startOfZonedDay(value, timeZone) ? value : undefined;
  };
  const input = { from: day("from"), to: day("to"), bucket: field("bucket"), insurer: field("insurer") };
  const today = clinicToday(timeZone, now);
  let to = input.to ?? today;
  let from = input.from ?? addDays(to, -29);
  if (from > to) [from, to] = [to, from];
  if (addDays(from, MAX_RANGE_DAYS) <= to) from = addDays(to, -(MAX_RANGE_DAYS - 1));
  return {
    from,
    to,
    bucket: input.bucket ?? "day",
    insurerId: input.insurer,
    timeZone,
    start: startOfZonedDay(from, timeZone) as Date,
    end: startOfZonedDay(addDays(to, 1), timeZone) as Date,
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
