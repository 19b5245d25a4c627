import { z } from "zod";
import { decodeCursor as decode, encodeCursor as encode } from "@/lib/cursor";

/*
 * The opaque page cursor: the (created_at, id) of the last claim of the previous page. created_at
 * keeps PostgreSQL's microseconds (a JS Date would round them away and skip or repeat rows that
 * share a millisecond), so it travels as the database's own text, never through Date.
 */
import { isPossibleDateText } from "@/lib/time";

export interface CursorKey {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, microseconds). */
  createdAt: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const key = z.tuple([
  z
    .string()
    .regex(TIMESTAMP)
    // A forged cursor with 2026-02-30 would otherwise reach PostgreSQL (and fail there).
    .refine((v) => isPossibleDateText(v) && !Number.isNaN(Date.parse(v))),
  z.uuid(),
]);

export function encodeCursor(k: CursorKey): string {
  return encode([k.createdAt, k.id]);
}

/** The key, or undefined for anything that is not a cursor this API produced. */
export function decodeCursor(cursor: string): CursorKey | undefined {
  const parsed = decode(cursor, key);
  return parsed && { createdAt: parsed[0], id: parsed[1] };
}
