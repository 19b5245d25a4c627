/**
 * A Content-Type header read as RFC 9110 §8.3.1 writes it: `type/subtype` and `; name=value`
 * parameters (a value may be a quoted string). Lower-cased type and parameter names; undefined
 * when the header is not of that form.
 */
export interface MediaType {
  type: string;
  params: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function parseMediaType(header: string): MediaType | undefined {
  const [essence = "", ...rest] = splitParams(header);
  const [type, subtype, extra] = essence.trim().split("/");
  if (!type || !subtype || extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const params = new Map<string, string>();
  for (const part of rest) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) return undefined;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (!TOKEN.test(name)) return undefined;
    if (value.startsWith('"')) {
      if (value.length < 2 || !value.endsWith('"')) return undefined;
      value = value.slice(1, -1).replace(/\\(.)/g, "$1");
    } else if (!TOKEN.test(value)) {
      return undefined;
    }
    if (params.has(name)) return undefined;
    params.set(name, value);
  }
  return { type: `${type}/${subtype}`.toLowerCase(), params };
}

/** Splits on `;` outside quoted strings. */
function splitParams(header: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (quoted && c === "\\" && i + 1 < header.length) {
      current += c + header[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ";" && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}
