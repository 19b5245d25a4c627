import { sql } from "drizzle-orm";
import { consumeRate, rateHeaders } from "@/lib/api-access";
import type { RateDecision } from "@/lib/api-access";
import { audit, type AuditActor } from "@/lib/audit";
import type { Db, ApiEnvironment } from "@/lib/db";
import { describeError, contextFromHeaders } from "@/lib/http";
import { authenticateCaller, type ApiCaller } from "./auth";
import { ClaimsApiError, errorResponse, JSON_HEADERS } from "./errors";
import { parseClaimsQuery, refuseCredentialsInUrl, type ClaimsQuery } from "./params";
import { listClaims } from "./query";
import { toApiClaim } from "./serialize";
import { log } from "@/lib/log";

export interface ClaimsApiDeps {
  db: Db;
  /** PLATFORM_ENV of this portal: keys and clients of the other environment are refused. */
  environment: ApiEnvironment;
  /** Requests per minute per key / per client. */
  ratePerMinute: number;
  now?: () => Date;
}

/**
 * One request against a per-minute budget, committed without waiting for the WAL flush: a counter
 * lost in a crash only forgives a few requests, and the flush was half of a request's latency on
 * a busy disk. (The audit entry keeps its synchronous commit.)
 */
export async function consumeRateFast(db: Db, bucket: string, perMinute: number, now: Date): Promise<RateDecision> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    return consumeRate(tx, bucket, { limit: perMinute, windowMs: 60_000 }, now);
  });
}

/** What the audit log keeps of a query: which filters were used, never the patient's ID. */
function auditFilters(q: ClaimsQuery | undefined): Record<string, unknown> | undefined {
  if (!q) return undefined;
  return {
    limit: q.limit,
    cursor: q.cursor !== undefined,
    status: q.statuses,
    patient: q.patient !== undefined,
    created_gte: q.createdGte?.toISOString(),
    created_lt: q.createdLt?.toISOString(),
  };
}

/**
 * `GET /v1/claims`. Order: credentials in the URL (refused before anything else), caller and
 * scope, rate limit, query parameters, query. Every call is audited as `claims_api.list`.
 */
export async function handleListClaims(request: Request, deps: ClaimsApiDeps): Promise<Response> {
  const now = deps.now?.() ?? new Date();
  const ctx = contextFromHeaders(request.headers);
  let caller: ApiCaller | undefined;
  let query: ClaimsQuery | undefined;
  let headers: Record<string, string> = {};
  const record = (outcome: "success" | "failure" | "denied", details: Record<string, unknown>) => {
    const actor: AuditActor = caller ? { kind: "api", id: caller.id, name: caller.label } : { kind: "anonymous", label: "claims-api" };
    return audit(deps.db, { actor, action: "claims_api.list", outcome, requestId: ctx.requestId, ip: ctx.ip, details }).catch((e: unknown) =>
      log("claims-api").error(`audit failed: ${describeError(e)}`),
    );
  };
  try {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new ClaimsApiError("invalid_parameter", "The request URL cannot be read.");
    }
    // A key in the URL is refused even before authentication, and its value never reaches a log.
    const params = url.searchParams;
    refuseCredentialsInUrl(params);
    caller = await authenticateCaller(request, { db: deps.db, environment: deps.environment, now }, "claims:read");
    const decision = await consumeRateFast(deps.db, caller.bucket, deps.ratePerMinute, now);
    headers = rateHeaders(decision);
    if (!decision.allowed) throw new ClaimsApiError("rate_limited", `Rate limit of ${decision.limit} requests per minute reached; retry after ${decision.retryAfterSeconds} s.`);
    query = parseClaimsQuery(params);
    const page = await listClaims(deps.db, query);
    await record("success", { via: caller.via, ...auditFilters(query), returned: page.rows.length });
    return new Response(JSON.stringify({ data: page.rows.map(toApiClaim), next_cursor: page.nextCursor, has_more: page.hasMore }), {
      status: 200,
      headers: { ...JSON_HEADERS, ...headers, "X-Request-ID": ctx.requestId },
    });
  } catch (error) {
    const known = error instanceof ClaimsApiError ? error : undefined;
    // Name and database code only: a failed query's message quotes its parameters (a national ID).
    if (!known) log("claims-api").error(`request ${ctx.requestId} failed: ${describeError(error)}`);
    const failure = known ?? new ClaimsApiError("internal_error", "The claims could not be read; try again later.");
    await record(failure.status === 401 || failure.status === 403 || failure.status === 429 ? "denied" : "failure", {
      via: caller?.via,
      error: failure.code,
      parameter: failure.extra.parameter,
      ...auditFilters(query),
    });
    return errorResponse(failure, { ...headers, "X-Request-ID": ctx.requestId });
  }
}
