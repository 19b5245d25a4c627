import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";
import { FHIR_JSON, operationOutcome, plainIssue } from "@/lib/fhir";
import { BodyReadError, BodyTooLargeError, readLimitedBody, unstorableTextPath, impossibleDatePath } from "@/lib/http";

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
  let bytes: Uint8Array;
  try {
    bytes = await readLimitedBody(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(maxBytes);
    if (error instanceof BodyReadError) throw ApiProblem.plain(400, "structure", "The body could not be read", undefined, "body_read");
    throw error;
  }
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
  const bad = unstorableTextPath(value);
  if (bad !== undefined) {
    throw ApiProblem.plain(400, "structure", `${bad || "(body)"}: text contains characters that are not allowed (NUL or unpaired surrogates)`, bad ? [bad] : undefined, "characters");
  }
  // Before the platform or the database sees it: 2026-02-30 is refused here, not rolled over or failed on insert.
  const badDate = impossibleDatePath(value);
  if (badDate !== undefined) {
    throw ApiProblem.plain(400, "value", `${badDate || "(body)"}: not a real calendar date or time (use YYYY-MM-DD of a day that exists)`, badDate ? [badDate] : undefined, "impossible_date");
  }
  return value as Record<string, unknown>;
}

function tooLarge(maxBytes: number): ApiProblem {
  return ApiProblem.plain(413, "too-costly", `The request body exceeds the limit of ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MiB)`, undefined, "too_large");
}

