import { BodyReadError, BodyTooLargeError, parseMediaType, readLimitedBody, unstorableTextPath, impossibleDatePath } from "@/lib/http";
import { AppError } from "@/lib/errors";
import { bodyLimitProblem, type LimitProblem } from "@/lib/fhir";

const JSON_TYPES = new Set(["application/json", "application/fhir+json"]);
/** Longest parameter list accepted after the media type (`; charset=utf-8; fhirVersion=4.0` is 30). */
export const MEDIA_TYPE_PARAMS_MAX_CHARS = 200;

export interface JsonBodyOptions {
  /** Largest body accepted (lib/http/limits.ts). */
  maxBytes: number;
  /**
   * Paths of dates the caller checks item by item itself (a visit list reports an impossible
   * service date as that item's problem and keeps the others): left out of the whole-body check.
   */
  itemDates?: RegExp;
}

/** 413 naming the limit. */
export function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large", `The request body exceeds the limit of ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MiB).`, {
    reason: "too_large",
    extra: { maxBytes },
  });
}

/**
 * A body over one of the size limits (lib/fhir CLAIM_LIMITS), naming it: 422 `limit_exceeded` for
 * a claim's counts (lines, diagnoses, supporting information, attachments), 413 `too_deep` for
 * nesting. Both carry `limit`, `max` and `actual`.
 */
export function limitError(problem: LimitProblem): AppError {
  const deep = problem.limit === "jsonDepth";
  return new AppError(deep ? "payload_too_large" : "unprocessable", problem.message, {
    reason: deep ? "too_deep" : "limit_exceeded",
    fields: [{ path: problem.path || "(body)", message: problem.message.startsWith(`${problem.path}: `) ? problem.message.slice(problem.path.length + 2) : problem.message }],
    extra: { limit: problem.limit, max: problem.max, actual: problem.actual },
  });
}

/**
 * THE reader of JSON request bodies of the machine APIs: Content-Type application/json or
 * application/fhir+json, at most `maxBytes` (counted while streaming), valid UTF-8 JSON, an object,
 * no text PostgreSQL cannot store (NUL, lone surrogates) and no impossible calendar date. Every
 * failure is a 4xx AppError naming what to fix.
 */
/**
 * THE Content-Type rule of every JSON endpoint (docs/decisions/060): application/json or
 * application/fhir+json — never missing or empty —, UTF-8 only (a `charset` other than utf-8 is
 * refused, not decoded as UTF-8 anyway), and a parameter list of at most
 * MEDIA_TYPE_PARAMS_MAX_CHARS characters. Throws 415 `unsupported_media_type` with a finer reason.
 */
export function checkJsonContentType(header: string | null): void {
  const value = (header ?? "").trim();
  const refuse = (reason: string, message: string) => {
    throw new AppError("unsupported_media_type", message, { reason });
  };
  const semicolon = value.indexOf(";");
  if (semicolon >= 0 && value.length - semicolon - 1 > MEDIA_TYPE_PARAMS_MAX_CHARS) {
    refuse("content_type_parameters", `The Content-Type parameters are longer than ${MEDIA_TYPE_PARAMS_MAX_CHARS} characters.`);
  }
  const media = parseMediaType(value);
  if (!media || !JSON_TYPES.has(media.type)) refuse("content_type", "Content-Type must be application/json or application/fhir+json.");
  const charset = media!.params.get("charset");
  if (charset !== undefined && charset.toLowerCase() !== "utf-8") refuse("charset", `Only UTF-8 is accepted (Content-Type says charset=${charset.slice(0, 40)}).`);
}

export async function readJsonObject(request: Request, options: JsonBodyOptions): Promise<Record<string, unknown>> {
  checkJsonContentType(request.headers.get("content-type"));
  let bytes: Uint8Array;
  try {
    bytes = await readLimitedBody(request, options.maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(options.maxBytes);
    if (error instanceof BodyReadError) throw new AppError("invalid_request", "The body could not be read.", { reason: "body_read" });
    throw error;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("invalid_request", "The body is not valid UTF-8.", { reason: "encoding" });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", "The body is not valid JSON.", { reason: "invalid_json" });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("invalid_request", "The body must be a JSON object.", { reason: "not_object" });
  }
  // Before any other walk or any work (docs/decisions/093): nesting and a claim's counts, in one linear pass.
  const limit = bodyLimitProblem(value);
  if (limit) throw limitError(limit);
  const bad = unstorableTextPath(value);
  if (bad !== undefined) {
    throw new AppError("invalid_request", `${bad || "(body)"}: text contains characters that are not allowed (NUL or unpaired surrogates).`, {
      reason: "characters",
      fields: [{ path: bad || "(body)", message: "characters not allowed (NUL or unpaired surrogates)" }],
    });
  }
  // Before the platform or the database sees it: 2026-02-30 is refused here, not rolled over or failed on insert.
  const badDate = impossibleDatePath(value, "", 0, options.itemDates);
  if (badDate !== undefined) {
    throw new AppError("invalid_request", `${badDate || "(body)"}: not a real calendar date or time.`, {
      reason: "impossible_date",
      fields: [{ path: badDate || "(body)", message: "not a real calendar date or time (YYYY-MM-DD of a day that exists)" }],
    });
  }
  return value as Record<string, unknown>;
}
