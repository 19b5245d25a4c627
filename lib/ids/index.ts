/**
 * The one UUID check for ids that arrive from outside (URLs, forms, API bodies): a UUID in the
 * canonical 8-4-4-4-12 hex form, any case. Checking first keeps a malformed id a 404 / 400 rather
 * than a database error on the `uuid` column.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
