import { z } from "zod";
import { AUDIT_OUTCOMES } from "@/lib/db";
import { decodeCursor, encodeCursor } from "@/lib/cursor";
import { hasControlCharacters } from "@/lib/http";
import { addDays, isCalendarDate, isPossibleDateText, startOfZonedDay } from "@/lib/time";
import type { AuditQuery } from "./index";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine(isCalendarDate);
/** Free text that goes into a query: no control characters (PostgreSQL refuses NUL). */
const line = (max: number) => z.string().max(max).refine((v) => !hasControlCharacters(v));
const empty = (v: unknown) => (v === "" ? undefined : v);

/** The audit page's query string. Bad values are reported and ignored, never a server error. */
export const auditFilterSchema = z.object({
  action: z.preprocess(empty, line(100).optional()),
  actor: z.preprocess(empty, line(200).optional()),
  outcome: z.preprocess(empty, z.enum(AUDIT_OUTCOMES).optional()),
  from: z.preprocess(empty, day.optional()),
  to: z.preprocess(empty, day.optional()),
  before: z.preprocess(empty, z.string().regex(/^[A-Za-z0-9_-]{1,400}$/).optional()),
});

export type AuditFilters = z.infer<typeof auditFilterSchema>;

export function parseAuditFilters(
  params: Record<string, string | string[] | undefined>,
  timeZone: string,
): { filters: AuditFilters; query: AuditQuery; invalid: string[] } {
  const flat = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const invalid: string[] = [];
  const filters: AuditFilters = {};
  for (const key of Object.keys(auditFilterSchema.shape) as (keyof AuditFilters)[]) {
    const result = auditFilterSchema.shape[key].safeParse(flat[key]);
    if (result.success) (filters as Record<string, unknown>)[key] = result.data;
    else invalid.push(key);
  }
  const query: AuditQuery = { action: filters.action, actor: filters.actor, outcome: filters.outcome, limit: 50 };
  if (filters.from) {
    query.from = startOfZonedDay(filters.from, timeZone);
    if (!query.from) invalid.push("from");
  }
  if (filters.to) {
    // "to" is inclusive for people: up to the end of that day.
    query.to = startOfZonedDay(addDays(filters.to, 1), timeZone);
    if (!query.to) invalid.push("to");
  }
  if (filters.before) {
    const key = decodeCursor(filters.before, cursorKey);
    if (!key) invalid.push("before");
    else query.before = { at: new Date(key[0]), id: key[1] };
  }
  return { filters, query, invalid };
}

/** (at, id) of a page's last row ⇄ the `before` parameter (lib/cursor). */
const cursorKey = z.tuple([z.iso.datetime().refine(isPossibleDateText), z.number().int().positive()]);

export function cursorParam(cursor: { at: Date; id: number }): string {
  return encodeCursor([cursor.at.toISOString(), cursor.id]);
}
