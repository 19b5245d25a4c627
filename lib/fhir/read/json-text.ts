/**
 * The exact text of the messages a reply carries (docs/decisions/096): a poll reply is one JSON
 * text whose `entry[i].resource` are the messages; the inbox keeps each as it arrived, byte for
 * byte, not as re-serialised JSON. The text has already parsed as JSON, so this scanner only walks
 * it: strings (with escapes), nesting, and the top-level members it is asked for.
 */

const WHITESPACE = new Set([" ", "\n", "\r", "\t"]);

function skipWhitespace(text: string, at: number): number {
  while (at < text.length && WHITESPACE.has(text[at]!)) at++;
  return at;
}

/** The index just past the string that starts at `at` (a `"`). */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i + 1;
  }
  throw new SyntaxError("unterminated string");
}

/** The index just past the JSON value that starts at or after `at`. */
function skipValue(text: string, at: number): number {
  let i = skipWhitespace(text, at);
  const first = text[i];
  if (first === '"') return skipString(text, i);
  if (first === "{" || first === "[") {
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        i = skipString(text, i) - 1;
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new SyntaxError("unterminated value");
  }
  while (i < text.length && !WHITESPACE.has(text[i]!) && text[i] !== "," && text[i] !== "}" && text[i] !== "]") i++;
  return i;
}

/** The members of the object at `at`: key and the span of its value. */
function members(text: string, at: number): { key: string; start: number; end: number }[] {
  let i = skipWhitespace(text, at);
  if (text[i] !== "{") return [];
  const found: { key: string; start: number; end: number }[] = [];
  i = skipWhitespace(text, i + 1);
  while (i < text.length && text[i] !== "}") {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    if (text[i] !== ":") throw new SyntaxError("expected ':'");
    const start = skipWhitespace(text, i + 1);
    const end = skipValue(text, start);
    found.push({ key, start, end });
    i = skipWhitespace(text, end);
    if (text[i] === ",") i = skipWhitespace(text, i + 1);
  }
  return found;
}

/** The elements of the array at `at`, as spans. */
function elements(text: string, at: number): { start: number; end: number }[] {
  let i = skipWhitespace(text, at);
  if (text[i] !== "[") return [];
  const found: { start: number; end: number }[] = [];
  i = skipWhitespace(text, i + 1);
  while (i < text.length && text[i] !== "]") {
    const end = skipValue(text, i);
    found.push({ start: i, end });
    i = skipWhitespace(text, end);
    if (text[i] === ",") i = skipWhitespace(text, i + 1);
  }
  return found;
}

/**
 * The text of each `entry[i].resource` of a Bundle's JSON text, by entry index (undefined where an
 * entry has no resource). Empty when the text is not a JSON object with an `entry` array.
 */
export function entryResourceTexts(text: string): (string | undefined)[] {
  try {
    const entry = members(text, 0).find((m) => m.key === "entry");
    if (!entry) return [];
    return elements(text, entry.start).map((element) => {
      const resource = members(text, element.start).find((m) => m.key === "resource");
      return resource ? text.slice(resource.start, resource.end) : undefined;
    });
  } catch {
    return [];
  }
}
