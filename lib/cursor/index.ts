import type { z } from "zod";

/**
 * The one keyset-cursor codec: a page's cursor is the sort key(s) and id of its last row, sent as
 * opaque base64url text (JSON inside). Every list — the claims list, authorizations, the audit
 * log, the generic claims API — encodes with `encodeCursor` and decodes with its own tuple schema,
 * so a cursor that was altered, cut or made by another list is simply "no cursor".
 */

const MAX_CURSOR_LENGTH = 400;

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** The key if `text` is a cursor `schema` accepts, else undefined (never throws). */
export function decodeCursor<T>(text: unknown, schema: z.ZodType<T>): T | undefined {
  if (typeof text !== "string" || text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
