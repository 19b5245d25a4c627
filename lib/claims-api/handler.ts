import { runApi } from "@/lib/api";
import { jsonResponse } from "@/lib/errors";
import type { Db, ApiEnvironment } from "@/lib/db";
import { apiKeyOrBearerStrategy, type ApiCaller } from "./auth";
import { claimsApiError } from "./errors";
import { parseClaimsQuery, refuseCredentialsInUrl, type ClaimsQuery } from "./params";
import { listClaims } from "./query";
import { toApiClaim } from "./serialize";
import { claimPayments } from "@/lib/payments";

export interface ClaimsApiDeps {
  db: Db;
  /** PLATFORM_ENV of this portal: keys and clients of the other environment are refused. */
  environment: ApiEnvironment;
  /** Requests per minute per key / per client. */
  ratePerMinute: number;
  now?: () => Date;
}

/** What the audit log keeps of a query: which filters were used, never the patient's ID. */
function auditFilters(q: ClaimsQuery): Record<string, unknown> {
  return {
    limit: q.limit,
    cursor: q.cursor !== undefined,
    status: q.statuses,
    patient: q.patient !== undefined,
    created_gte: q.createdGte?.toISOString(),
    created_lt: q.createdLt?.toISOString(),
  };
}

/** Credentials in the URL are refused before anything else, and their value never reaches a log. */
function precheck(request: Request): void {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw claimsApiError("invalid_parameter", "The request URL cannot be read.");
  }
  refuseCredentialsInUrl(url.searchParams);
}

/**
 * `GET /v1/claims` on the kernel (lib/api). Order: credentials in the URL (refused before anything
 * else), caller and scope, rate limit (per key / client, fast commit), query parameters, query.
 * Every call is audited as `claims_api.list`.
 */
export async function handleListClaims(request: Request, deps: ClaimsApiDeps): Promise<Response> {
  return runApi<ApiCaller>(
    { name: "claims-api", style: "json", db: async () => deps.db, now: deps.now, precheck, authenticate: apiKeyOrBearerStrategy(deps, "claims:read") },
    "claims_api.list",
    request,
    async (call) => {
      call.audit.details.via = call.principal.via;
      const query = parseClaimsQuery(new URL(request.url).searchParams);
      Object.assign(call.audit.details, auditFilters(query));
      const page = await listClaims(call.db, query);
      call.audit.details.returned = page.rows.length;
      const paid = await claimPayments(call.db, page.rows.map((r) => r.id));
      return jsonResponse({ data: page.rows.map((r) => toApiClaim(r, paid.get(r.id))), next_cursor: page.nextCursor, has_more: page.hasMore }, 200);
    },
  );
}
