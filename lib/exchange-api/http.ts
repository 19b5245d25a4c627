import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";
import { FHIR_JSON, operationOutcome, plainIssue } from "@/lib/fhir";

/** FHIR JSON answers and the request-body reader of the exchange API. */

export const FHIR_CONTENT_TYPE = `${FHIR_JSON}; charset=utf-8`;

export function fhirResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": FHIR_CONTENT_TYPE, "cache-control": "no-store", "x-content-type-options": "nosniff", ...headers },
  });
}

/** An error answer: always an OperationOutcome. */
export class ApiProblem extends Error {
  override name = "ApiProblem";
  constructor(
    readonly status: number,
    readonly issues: OperationOutcomeIssue[],
    readonly headers: Record<string, string> = {},
    /** A short, patient-free reason for the audit log. */
    readonly reason?: string,
  ) {
    super(issues.map((i) => i.diagnostics ?? i.code).join("; "));
  }

  static plain(status: number, code: OperationOutcomeIssue["code"], diagnostics: string, expression?: string[], reason?: string): ApiProblem {
    return new ApiProblem(status, [{ ...plainIssue(code, diagnostics), ...(expression ? { expression } : {}) }], {}, reason);
  }

  outcome(): OperationOutcome {
    return operationOutcome(this.issues);
  }

  response(extraHeaders: Record<string, string> = {}): Response {
    return fhirResponse(this.outcome(), this.status, { ...this.headers, ...extraHeaders });
  }
}

const JSON_TYPES = /^application\/(fhir\+)?json\s*(;|$)/i;

/**
 * Reads a JSON object from the body: Content-Type application/fhir+json (or application/json),
 * at most `maxBytes`, valid UTF-8 JSON, an object, and no text PostgreSQL cannot store (NUL,
 * lone surrogates). Every failure is a 4xx ApiProblem.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!JSON_TYPES.test(type)) {
    throw ApiProblem.plain(415, "not-supported", "Content-Type must be application/fhir+json", undefined, "content_type");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw ApiProblem.plain(400, "structure", "The body is not valid UTF-8", undefined, "encoding");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ApiProblem.plain(400, "structure", "The body is not valid JSON", undefined, "json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw ApiProblem.plain(400, "structure", "The body must be a FHIR resource (a JSON object)", undefined, "not_object");
  }
  const bad = unstorableText(value, "");
  if (bad !== undefined) {
    throw ApiProblem.plain(400, "structure", `${bad || "(body)"}: text contains characters that are not allowed (NUL or unpaired surrogates)`, bad ? [bad] : undefined, "characters");
  }
  return value as Record<string, unknown>;
}

function tooLarge(maxBytes: number): ApiProblem {
  return ApiProblem.plain(413, "too-costly", `The request body exceeds ${maxBytes} bytes`, undefined, "too_large");
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
      throw ApiProblem.plain(400, "structure", "The body could not be read", undefined, "body_read");
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

/** The path of the first string (or key) PostgreSQL's jsonb would refuse, else undefined. */
function unstorableText(value: unknown, path: string, depth = 0): string | undefined {
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
      const child = path ? `${path}.${k}` : k;
      if (BAD_TEXT.test(k)) return path;
      const found = unstorableText(v, child, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
