/**
 * Request bodies read by the portal's own route handlers (attachments, exchange API, gateway):
 * bounded while streaming, and checked for text PostgreSQL cannot store. Each caller turns these
 * errors into its own answer format.
 */

/** The request body was larger than allowed; answered 413 before reading the rest. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/** The body stream failed before it ended (the client went away). */
export class BodyReadError extends Error {
  override name = "BodyReadError";
}

/**
 * Reads a request body while counting: refuses at once when Content-Length announces too much, and
 * stops reading (cancelling the stream) as soon as the bytes received pass the limit, so an
 * oversized upload never sits in memory whole.
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw new BodyReadError("the request body could not be read");
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path (`a.b[0].c`, "" for the root) of the first string or key that PostgreSQL's jsonb would
 * refuse — NUL or an unpaired surrogate — or undefined when everything can be stored. Nesting
 * deeper than 64 levels is reported at the level where it goes too deep.
 */
export function unstorableTextPath(value: unknown, path = "", depth = 0): string | undefined {
  if (depth > 64) return path;
  if (typeof value === "string") return UNSTORABLE.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (UNSTORABLE.test(k)) return path;
      const found = unstorableTextPath(v, path ? `${path}.${k}` : k, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
