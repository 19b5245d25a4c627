import { isPossibleDateText } from "@/lib/time";

/**
 * Checks every input layer shares (route handlers, server actions, pages): path segments decoded
 * without throwing, text free of control characters, dates that exist. Each caller turns a
 * finding into its own answer (a 400 in its family's shape, or the not-found page).
 */

/** C0 controls except tab, line feed and carriage return; DEL; C1 controls. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Every control character, for one-line values (ids, parameters, header values). */
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F-\u009F]/;

/** Whether one-line text (an id, a query parameter, a form field) holds a control character. */
export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  return (options.multiline ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value);
}

/** One decoded path segment, or undefined when its percent-encoding is malformed (`%zz`, `%c3%28`). */
export function decodePathSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Whether every segment of a URL path decodes (what Next.js does before it routes to a dynamic page). */
export function isDecodablePath(pathname: string): boolean {
  return pathname.split("/").every((segment) => decodePathSegment(segment) !== undefined);
}

/**
 * The path (`item[0].servicedDate`, "" for the root) of the first string in a parsed JSON value
 * that is shaped like a date or date-time but names a day or time that does not exist
 * (2026-02-30, 2026-04-31, 2026-13-01, 25:00) — or undefined when there is none. FHIR bodies are
 * checked with this before anything reaches the platform or the database.
 */
export function impossibleDatePath(value: unknown, path = "", depth = 0, skip?: RegExp): string | undefined {
  if (depth > 64) return undefined;
  if (typeof value === "string") return isPossibleDateText(value) || skip?.test(path) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = impossibleDatePath(value[i], `${path}[${i}]`, depth + 1, skip);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const found = impossibleDatePath(v, path ? `${path}.${k}` : k, depth + 1, skip);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The path of the first string in a form's or action's input that holds a control character
 * other than tab and line breaks (free text may span lines), or undefined. Server actions refuse
 * such input before any database call: PostgreSQL cannot store NUL, and nothing a person types
 * needs the others.
 */
export function controlCharacterPath(value: unknown, path = "", depth = 0): string | undefined {
  if (depth > 64) return undefined;
  if (typeof value === "string") return hasControlCharacters(value, { multiline: true }) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlCharacterPath(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) {
      const found = controlCharacterPath(v, path ? `${path}.${k}` : k, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
