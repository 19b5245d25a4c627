import { FHIR_JSON } from "@/lib/fhir";

/** JSON answers, stable error codes and the bounded body reader of the gateway. */

export const GATEWAY_ERROR_CODES = [
  "unauthorized",
  "rate_limited",
  "unsupported_media_type",
  "payload_too_large",
  "invalid_json",
  "invalid_body",
  "unknown_agent",
  "unknown_task",
  "invalid_data",
  "not_found",
  "conflict",
  "gateway_misconfigured",
  "internal_error",
] as const;
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

/** One field problem: a path such as `data.claim.item[0].unitPrice` and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** An error answer with a stable code; thrown by tasks, turned into a response by the runner. */
export class GatewayError extends Error {
  override name = "GatewayError";
  constructor(
    readonly status: number,
    readonly code: GatewayErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra };
  }
}

const BASE_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...BASE_HEADERS, ...headers } });
}

export function fhirJsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": `${FHIR_JSON}; charset=utf-8`, ...BASE_HEADERS, ...headers } });
}

const JSON_TYPES = /^application\/(fhir\+)?json\s*(;|$)/i;

/**
 * Reads a JSON object from the body: JSON (or no) content type, at most `maxBytes`, valid UTF-8, an
 * object, and no text PostgreSQL's jsonb would refuse (NUL, unpaired surrogates). Every failure is
 * a 4xx GatewayError.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  // No Content-Type is read as JSON (some automation clients omit it); another type is refused.
  if (type.trim() !== "" && !JSON_TYPES.test(type)) throw new GatewayError(415, "unsupported_media_type", "Content-Type must be application/json (or application/fhir+json).");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new GatewayError(400, "invalid_json", "The body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError(400, "invalid_json", "The body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GatewayError(400, "invalid_body", "The body must be a JSON object.");
  const bad = unstorableText(value, "", 0);
  if (bad !== undefined) {
    throw new GatewayError(400, "invalid_body", "Text contains characters that are not allowed (NUL or unpaired surrogates).", { issues: [{ path: bad || "(body)", message: "characters not allowed" }] });
  }
  return value as Record<string, unknown>;
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError(413, "payload_too_large", `The request body exceeds ${maxBytes} bytes.`);
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw new GatewayError(400, "invalid_body", "The body could not be read.");
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unstorableText(value: unknown, path: string, depth: number): string | undefined {
  if (depth > 64) return path;
  if (typeof value === "string") return BAD_TEXT.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableText(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (BAD_TEXT.test(k)) return path;
      const found = unstorableText(v, path ? `${path}.${k}` : k, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** zod issue path → `a.b[0].c` under `prefix`. */
export function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string") out += out ? `.${p}` : p;
  }
  return out || "(body)";
}
