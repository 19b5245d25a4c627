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
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`1|${key.createdAt}|${key.id}`, "utf8").toString("base64url");
}

/** The key, or undefined for anything that is not a cursor this API produced. */
export function decodeCursor(cursor: string): CursorKey | undefined {
  if (cursor.length > 120 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const [version, createdAt, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (version !== "1" || rest.length || !createdAt || !id || !TIMESTAMP.test(createdAt) || !UUID.test(id)) return undefined;
  // A forged cursor with 2026-02-30 would otherwise reach PostgreSQL (and fail there).
  if (!isPossibleDateText(createdAt)) return undefined;
  return { createdAt, id };
}
