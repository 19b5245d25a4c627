import { audit, type AuditActor } from "@/lib/audit";
import { consumeRate, rateHeaders } from "@/lib/api-access";
import type { OrgClient } from "@/lib/api-access";
import type { Db } from "@/lib/db";
import { plainIssue } from "@/lib/fhir";
import { describeError, contextFromHeaders } from "@/lib/http";
import type { PlatformClient } from "@/lib/platform";
import { authenticate, publicReason } from "./auth";
import type { ExchangeApiConfig } from "./config";
import { ApiProblem, fhirResponse } from "./http";
import { lineWriter } from "@/lib/log";

/** What the exchange API needs; route files pass the process-wide ones, tests their own. */
export interface ExchangeApiDeps {
  db: () => Promise<Db>;
  platform: () => Promise<Pick<PlatformClient, "checkEligibility">>;
  config: ExchangeApiConfig;
  now?: () => Date;
  /** Default: the portal log (lib/log); lines carry ids and codes only. */
  warn?: (line: string) => void;
  /** Time zone of the clinic's calendar day (service date of coverage checks); default CLINIC_TIME_ZONE or Asia/Riyadh. */
  timeZone?: string;
}

export type ExchangeOp = "eligibility.check" | "coverage.read" | "claim.submit" | "claim.status";

/** One authenticated call. */
export interface CallContext {
  deps: ExchangeApiDeps;
  db: Db;
  client: OrgClient;
  actor: AuditActor;
  requestId: string;
  ip?: string;
  now: Date;
  /** Filled by the operation: what the audit entry refers to and patient-free details. */
  audit: { target?: { type: string; id: string }; details: Record<string, unknown> };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function requestMeta(request: Request): { requestId: string; ip?: string } {
  const { requestId, ip } = contextFromHeaders(request.headers);
  return { requestId, ip };
}

/**
 * Runs one operation: authenticate the organization (401), count it against its rate limit
 * (429), run it, answer errors as OperationOutcome, audit the call. Never lets an exception out.
 */
export async function runOperation(
  op: ExchangeOp,
  request: Request,
  deps: ExchangeApiDeps,
  work: (ctx: CallContext) => Promise<Response>,
): Promise<Response> {
  const { requestId, ip } = requestMeta(request);
  const baseHeaders: Record<string, string> = { "X-Request-ID": requestId };
  const action = `exchange.${op}`;
  const warn = deps.warn ?? lineWriter("warn");
  let db: Db | undefined;
  let ctx: CallContext | undefined;
  try {
    db = await deps.db();
    const now = (deps.now ?? (() => new Date()))();
    const auth = await authenticate(db, request.headers.get("authorization"), deps.config, now);
    if (!auth.ok) {
      const reason = publicReason(auth.failure);
      await audit(db, {
        actor: auth.client ? { kind: "api", id: auth.client.clientId, name: auth.client.name } : { kind: "anonymous", label: "exchange-api" },
        action,
        outcome: "denied",
        requestId,
        ip,
        details: { status: 401, reason: auth.failure, ...(auth.clientId && !auth.client ? { claimedIssuer: auth.clientId.slice(0, 100) } : {}) },
      });
      return new ApiProblem(401, [plainIssue(reason === "expired" ? "expired" : "login", `Authentication failed (${reason})`)]).response({
        ...baseHeaders,
        "WWW-Authenticate": `Bearer realm="exchange", error="invalid_token", error_description="${reason}"`,
      });
    }
    const client = auth.client;
    const actor: AuditActor = { kind: "api", id: client.clientId, name: client.name };
    const rate = await consumeRate(db, `exchange:org:${client.clientId}`, { limit: deps.config.ratePerMinute, windowMs: 60_000 }, now);
    const limitHeaders = rateHeaders(rate);
    if (!rate.allowed) {
      await audit(db, { actor, action, outcome: "denied", requestId, ip, details: { status: 429, reason: "rate_limited" } });
      return new ApiProblem(429, [plainIssue("throttled", `Rate limit of ${rate.limit} requests per minute reached; retry in ${rate.retryAfterSeconds} s`)]).response({
        ...baseHeaders,
        ...limitHeaders,
      });
    }
    ctx = { deps, db, client, actor, requestId, ip, now, audit: { details: {} } };
    let response: Response;
    try {
      response = await work(ctx);
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      ctx.audit.details.reason ??= error.reason;
      response = error.response();
    }
    for (const [k, v] of Object.entries({ ...baseHeaders, ...limitHeaders })) response.headers.set(k, v);
    await audit(db, {
      actor,
      action,
      target: ctx.audit.target,
      outcome: response.status < 400 ? "success" : "failure",
      requestId,
      ip,
      details: { status: response.status, ...ctx.audit.details },
    });
    return response;
  } catch (error) {
    // Name and database code only: a failed query's message quotes its parameters (patient data).
    warn(`[exchange-api] ${op} failed, request ${requestId}: ${describeError(error)}`);
    if (db) {
      await audit(db, {
        actor: ctx?.actor ?? { kind: "anonymous", label: "exchange-api" },
        action,
        target: ctx?.audit.target,
        outcome: "failure",
        requestId,
        ip,
        details: { status: 500, reason: "internal_error" },
      }).catch(() => undefined);
    }
    return fhirResponse({ resourceType: "OperationOutcome", issue: [plainIssue("exception", `Internal error; quote request id ${requestId}`)] }, 500, baseHeaders);
  }
}
