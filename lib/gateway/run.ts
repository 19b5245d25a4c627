import type { OperationOutcome, OperationOutcomeIssue } from "@medplum/fhirtypes";
import { authenticateGatewayToken, consumeRate, rateHeaders } from "@/lib/api-access";
import type { GatewayTokenSummary } from "@/lib/api-access";
import { audit, type AuditActor } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { contextFromHeaders } from "@/lib/http";
import { GatewayConfigError, type GatewayConfig } from "./config";
import { GatewayError, fhirJsonResponse, jsonResponse } from "./http";
import { lineWriter } from "@/lib/log";

/** What the gateway needs; route files pass the process-wide ones, tests their own. */
export interface GatewayDeps {
  db: () => Promise<Db>;
  /** A function so that a bad GATEWAY_AGENTS is answered 503 with its message, not a crash. */
  config: () => GatewayConfig;
  now?: () => Date;
  /** Default: the portal log (lib/log); lines carry ids and codes only. */
  warn?: (line: string) => void;
}

/** One authenticated call. */
export interface GatewayContext {
  db: Db;
  config: GatewayConfig;
  token: GatewayTokenSummary;
  actor: AuditActor;
  requestId: string;
  ip?: string;
  now: Date;
  /** Filled by the work: the audit action (`gateway.<role>.<task>`), target and patient-free details. */
  audit: { action: string; target?: { type: string; id: string }; details: Record<string, unknown> };
}

/** `json`: `{error, message}` bodies (POST /query); `fhir`: OperationOutcome bodies (/fhir/**). */
export type ErrorStyle = "json" | "fhir";

export const GATEWAY_ERROR_SYSTEM = "https://clinic.example/fhir/CodeSystem/gateway-error";

function requestMeta(request: Request): { requestId: string; ip?: string } {
  const { requestId, ip } = contextFromHeaders(request.headers);
  return { requestId, ip };
}

const FHIR_ISSUE_CODE: Record<string, OperationOutcomeIssue["code"]> = {
  unauthorized: "login",
  rate_limited: "throttled",
  unsupported_media_type: "not-supported",
  payload_too_large: "too-costly",
  invalid_json: "structure",
  invalid_body: "structure",
  invalid_data: "invalid",
  not_found: "not-found",
  conflict: "conflict",
  gateway_misconfigured: "exception",
  internal_error: "exception",
};

/** A GatewayError as an OperationOutcome (each field issue becomes one issue with its expression). */
export function errorOutcome(error: GatewayError): OperationOutcome {
  const coded = { coding: [{ system: GATEWAY_ERROR_SYSTEM, code: error.code }] };
  const fieldIssues = Array.isArray(error.extra.issues) ? (error.extra.issues as { path: string; message: string; code?: string }[]) : [];
  const issue: OperationOutcomeIssue[] = fieldIssues.length
    ? fieldIssues.slice(0, 20).map((i) => ({ severity: "error", code: FHIR_ISSUE_CODE[error.code] ?? "processing", details: coded, diagnostics: `${i.path}: ${i.message}`, expression: [i.path] }))
    : [{ severity: "error", code: FHIR_ISSUE_CODE[error.code] ?? "processing", details: coded, diagnostics: error.message }];
  return { resourceType: "OperationOutcome", issue };
}

function errorResponse(error: GatewayError, style: ErrorStyle, headers: Record<string, string>): Response {
  const all = { ...error.headers, ...headers };
  return style === "fhir" ? fhirJsonResponse(errorOutcome(error), error.status, all) : jsonResponse(error.body(), error.status, all);
}

const UNAUTHORIZED_MESSAGE: Record<string, string> = {
  missing: "Send the gateway token as Authorization: Bearer <token>.",
  malformed: "The Authorization header must read Bearer <token>.",
  unknown: "The token is not valid or has been revoked.",
  revoked: "The token is not valid or has been revoked.",
};

/**
 * Runs one gateway call: authenticate the bearer token (401), count it against the token's rate
 * limit (429), run the work, answer errors with stable codes, audit the call with the token's
 * name. Never lets an exception out; a 500 only for a fault of the portal itself.
 */
export async function runGateway(
  initialAction: string,
  style: ErrorStyle,
  request: Request,
  deps: GatewayDeps,
  work: (ctx: GatewayContext) => Promise<Response>,
): Promise<Response> {
  const { requestId, ip } = requestMeta(request);
  const baseHeaders: Record<string, string> = { "X-Request-ID": requestId };
  const warn = deps.warn ?? lineWriter("warn");
  let db: Db | undefined;
  let ctx: GatewayContext | undefined;
  try {
    let config: GatewayConfig;
    try {
      config = deps.config();
    } catch (error) {
      if (!(error instanceof GatewayConfigError)) throw error;
      warn(`[gateway] configuration error: ${error.message}`);
      return errorResponse(new GatewayError(503, "gateway_misconfigured", `The gateway is not configured correctly: ${error.message}`), style, baseHeaders);
    }
    db = await deps.db();
    const now = (deps.now ?? (() => new Date()))();
    const auth = await authenticateGatewayToken(db, request.headers.get("authorization"), now);
    if (!auth.ok) {
      await audit(db, {
        actor: auth.token ? { kind: "api", id: auth.token.id, name: auth.token.name } : { kind: "anonymous", label: "gateway" },
        action: initialAction,
        outcome: "denied",
        requestId,
        ip,
        details: { status: 401, reason: `token_${auth.reason}` },
      });
      const error = new GatewayError(401, "unauthorized", UNAUTHORIZED_MESSAGE[auth.reason]!, {}, {
        "WWW-Authenticate": auth.reason === "missing" ? 'Bearer realm="gateway"' : 'Bearer realm="gateway", error="invalid_token"',
      });
      return errorResponse(error, style, baseHeaders);
    }
    const token = auth.token;
    const actor: AuditActor = { kind: "api", id: token.id, name: token.name };
    const rate = await consumeRate(db, `gateway:token:${token.id}`, { limit: config.ratePerMinute, windowMs: 60_000 }, now);
    const limitHeaders = rateHeaders(rate);
    if (!rate.allowed) {
      await audit(db, { actor, action: initialAction, outcome: "denied", requestId, ip, details: { status: 429, reason: "rate_limited" } });
      return errorResponse(
        new GatewayError(429, "rate_limited", `Rate limit of ${rate.limit} requests per minute reached; retry in ${rate.retryAfterSeconds} s.`, { retryAfterSeconds: rate.retryAfterSeconds }),
        style,
        { ...baseHeaders, ...limitHeaders },
      );
    }
    ctx = { db, config, token, actor, requestId, ip, now, audit: { action: initialAction, details: {} } };
    let response: Response;
    try {
      response = await work(ctx);
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      ctx.audit.details.reason ??= error.code;
      response = errorResponse(error, style, {});
    }
    for (const [k, v] of Object.entries({ ...baseHeaders, ...limitHeaders })) response.headers.set(k, v);
    await audit(db, {
      actor,
      action: ctx.audit.action,
      target: ctx.audit.target,
      outcome: response.status < 400 ? "success" : "failure",
      requestId,
      ip,
      details: { status: response.status, ...ctx.audit.details },
    });
    return response;
  } catch (error) {
    // Name and database error code only: a failed query's message may quote its parameters (patient data).
    const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
    warn(`[gateway] ${ctx?.audit.action ?? initialAction} failed, request ${requestId}: ${(error as Error)?.name ?? "Error"}${typeof cause === "string" ? ` (${cause})` : ""}`);
    if (db) {
      await audit(db, {
        actor: ctx?.actor ?? { kind: "anonymous", label: "gateway" },
        action: ctx?.audit.action ?? initialAction,
        target: ctx?.audit.target,
        outcome: "failure",
        requestId,
        ip,
        details: { status: 500, reason: "internal_error" },
      }).catch(() => undefined);
    }
    return errorResponse(new GatewayError(500, "internal_error", `Internal error; quote request id ${requestId}.`), style, baseHeaders);
  }
}
