import { FHIR_JSON } from "@/lib/fhir";
import { BodyReadError, BodyTooLargeError, readLimitedBody, unstorableTextPath, impossibleDatePath } from "@/lib/http";

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
  let bytes: Uint8Array;
  try {
    bytes = await readLimitedBody(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(maxBytes);
    if (error instanceof BodyReadError) throw new GatewayError(400, "invalid_body", "The body could not be read.");
    throw error;
  }
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
  const bad = unstorableTextPath(value);
  if (bad !== undefined) {
    throw new GatewayError(400, "invalid_body", "Text contains characters that are not allowed (NUL or unpaired surrogates).", { issues: [{ path: bad || "(body)", message: "characters not allowed" }] });
  }
  // Before the platform or the database sees it: 2026-02-30 is refused here, not rolled over or failed on insert.
  const badDate = impossibleDatePath(value);
  if (badDate !== undefined) {
    throw new GatewayError(400, "invalid_body", `${badDate || "(body)"} is not a real calendar date or time.`, { issues: [{ path: badDate || "(body)", message: "not a real calendar date or time (YYYY-MM-DD of a day that exists)" }] });
  }
  return value as Record<string, unknown>;
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError(413, "payload_too_large", `The request body exceeds the limit of ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MiB).`, { maxBytes });
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
