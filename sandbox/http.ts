import type { OperationOutcomeIssue, Resource } from "@medplum/fhirtypes";
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyLimitProblem, FHIR_JSON, operationOutcome, PLATFORM_ERRORS, platformIssue, type PlatformIssueInput } from "../lib/fhir";

/** An error answered as an OperationOutcome with `status`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly issues: OperationOutcomeIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(issues.map((i) => i.diagnostics ?? i.code).join("; "));
  }

  static platform(input: PlatformIssueInput | PlatformIssueInput[], status?: number): ApiError {
    const list = Array.isArray(input) ? input : [input];
    const first = list[0];
    if (!first) throw new Error("ApiError.platform needs at least one issue");
    const issues = list.map(platformIssue);
    return new ApiError(status ?? platformStatus(first.code), issues);
  }

  static plain(status: number, code: OperationOutcomeIssue["code"], diagnostics: string, headers: Record<string, string> = {}): ApiError {
    return new ApiError(status, [{ severity: "error", code, diagnostics }], headers);
  }
}

function platformStatus(code: PlatformIssueInput["code"]): number {
  return PLATFORM_ERRORS[code].httpStatus;
}

export const FHIR_CONTENT_TYPE = `${FHIR_JSON}; charset=utf-8`;

export function sendFhir(res: ServerResponse, status: number, resource: Resource, headers: Record<string, string> = {}): void {
  send(res, status, FHIR_CONTENT_TYPE, JSON.stringify(resource), headers);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body), headers);
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = status;
  res.setHeader("Content-Type", contentType);
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("Cache-Control", "no-store");
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(body);
}

export class BodyTooLargeError extends Error {}

/** Reads the whole request body as UTF-8, refusing more than `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      reject(new BodyTooLargeError());
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface MediaType {
  type: string;
  params: Map<string, string>;
}

function parseMediaType(value: string): MediaType | undefined {
  const [typePart, ...paramParts] = value.split(";");
  const type = typePart?.trim().toLowerCase();
  if (!type || !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+*-]+$/.test(type)) return undefined;
  const params = new Map<string, string>();
  for (const p of paramParts) {
    const eq = p.indexOf("=");
    if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim().replace(/^"|"$/g, ""));
  }
  return { type, params };
}

/** Accept must list application/fhir+json (parameters such as fhirVersion=4.0 allowed). */
export function acceptsFhirJson(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(",").some((part) => {
    const media = parseMediaType(part);
    if (!media || media.type !== FHIR_JSON) return false;
    const q = media.params.get("q");
    const version = media.params.get("fhirversion");
    return (q === undefined || Number(q) > 0) && (version === undefined || version.startsWith("4.0"));
  });
}

/** Content-Type must be application/fhir+json; a charset, if given, must be UTF-8. */
export function isFhirJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = parseMediaType(contentType);
  if (!media || media.type !== FHIR_JSON) return false;
  const charset = media.params.get("charset");
  return charset === undefined || charset.toLowerCase() === "utf-8";
}

/** Parses a JSON body; anything but a JSON object is a 400 OperationOutcome. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim().length === 0) throw ApiError.plain(400, "structure", "The request body is empty; a FHIR JSON resource is required");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw ApiError.plain(400, "structure", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw ApiError.plain(400, "structure", "The request body must be a JSON object (a FHIR resource)");
  }
  // The exchange's size limits, the same as the portal's (lib/fhir CLAIM_LIMITS, docs/decisions/093).
  const limit = bodyLimitProblem(value);
  if (limit) throw ApiError.plain(limit.limit === "jsonDepth" ? 413 : 422, "too-costly", limit.message);
  return value as Record<string, unknown>;
}

/** What a route answers; the server writes it (or, under fault injection, drops it). */
export interface Reply {
  status: number;
  body: unknown;
  kind: "fhir" | "json";
  headers?: Record<string, string>;
}

export function fhirReply(status: number, body: Resource, headers?: Record<string, string>): Reply {
  return { status, body, kind: "fhir", headers };
}

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, kind: "json", headers };
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (reply.kind === "fhir") sendFhir(res, reply.status, reply.body as Resource, reply.headers);
  else sendJson(res, reply.status, reply.body, reply.headers);
}

export function outcomeReply(error: ApiError): Reply {
  return fhirReply(error.status, operationOutcome(error.issues), error.headers);
}
