/**
 * The provider-side exchange API: /api/exchange/** for the clinic's own systems,
 * authenticated by organization-signed JWTs. Route files call `exchangeApi()` and stay thin.
 * See docs/apis.md ("Provider-side exchange API") and docs/decisions/020-exchange-api-shapes.md.
 */
import { getDb } from "@/lib/db";
import { getPlatformPort } from "@/lib/platform";
import { runOperation, type ExchangeApiDeps } from "./api";
import { cancelClaim, claimStatus, statusCheck, submitClaim } from "./claims";
import { exchangeApiConfig } from "./config";
import { readCoverage } from "./coverage";
import { eligibilityCheck } from "./eligibility";
import { openApiDocument } from "./openapi";
import { importVisits, visitsStatus } from "./visits";

export { runOperation, type CallContext, type ExchangeApiDeps, type ExchangeOp } from "./api";
export { authenticate, pruneJwtReplays, publicReason, type AuthFailure, type AuthResult, type PublicAuthReason } from "./auth";
export { exchangeApiConfig, parseExchangeApiConfig, type ExchangeApiConfig } from "./config";
export { openApiDocument } from "./openapi";
export { EXCHANGE_API_CHANNEL, SUBMISSION_ID_SYSTEM, SUBMISSION_STATUS_SYSTEM, acknowledgement, statusParameters } from "./claims";

export interface ExchangeApi {
  eligibilityCheck(request: Request): Promise<Response>;
  coverage(request: Request, id: string): Promise<Response>;
  submitClaim(request: Request): Promise<Response>;
  claimStatus(request: Request, id: string): Promise<Response>;
  /** Decision 046: cancel (in process) or nullify (decided) on the platform with the exchange's reason. */
  cancelClaim(request: Request, id: string): Promise<Response>;
  /** Decision 046: ask the platform now; the status Parameters with what it said. */
  statusCheck(request: Request, id: string): Promise<Response>;
  /** Eligibility ahead of the visit (docs/decisions/044): a visit list in, its bad items and run out. */
  importVisits(request: Request): Promise<Response>;
  visitsStatus(request: Request, id: string): Promise<Response>;
  openApi(request: Request): Promise<Response>;
}

export function createExchangeApi(deps: ExchangeApiDeps): ExchangeApi {
  return {
    eligibilityCheck: (request) => runOperation("eligibility.check", request, deps, (ctx) => eligibilityCheck(ctx, request)),
    coverage: (request, id) => runOperation("coverage.read", request, deps, (ctx) => readCoverage(ctx, id)),
    submitClaim: (request) => runOperation("claim.submit", request, deps, (ctx) => submitClaim(ctx, request)),
    claimStatus: (request, id) => runOperation("claim.status", request, deps, (ctx) => claimStatus(ctx, id)),
    cancelClaim: (request, id) => runOperation("claim.cancel", request, deps, (ctx) => cancelClaim(ctx, request, id)),
    statusCheck: (request, id) => runOperation("claim.status-check", request, deps, (ctx) => statusCheck(ctx, id)),
    importVisits: (request) => runOperation("visits.import", request, deps, (ctx) => importVisits(ctx, request)),
    visitsStatus: (request, id) => runOperation("visits.status", request, deps, (ctx) => visitsStatus(ctx, id)),
    async openApi() {
      return new Response(JSON.stringify(openApiDocument(deps.config), null, 2), {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
      });
    },
  };
}

/** The process-wide API: the portal database and platform client, configuration from the environment. */
export function exchangeApi(): ExchangeApi {
  // The configuration was validated at boot (lib/env.ts): a bad value never gets this far.
  return createExchangeApi({ db: getDb, platform: getPlatformPort, port: getPlatformPort, config: exchangeApiConfig() });
}
