/**
 * The provider-side exchange API: /api/exchange/** for the clinic's own systems,
 * authenticated by organization-signed JWTs. Route files call `providerApi()` and stay thin.
 * See docs/apis.md ("Provider-side exchange API") and docs/decisions/020-exchange-api-shapes.md.
 */
import { getDb } from "@/lib/db";
import { getPlatformPort } from "@/lib/platform";
import { runOperation, type ProviderApiDeps } from "./api";
import { cancelClaim, claimStatus, statusCheck, submitClaim } from "./claims";
import { changeAuthorization, sendEvidenceApi } from "./changes";
import { providerApiConfig } from "./config";
import { readCoverage } from "./coverage";
import { eligibilityCheck } from "./eligibility";
import { openApiDocument } from "./openapi";
import { importVisits, visitsStatus } from "./visits";
import { appealPrescriptionApi, cancelPrescriptionApi, prescriptionEvidenceApi, prescriptionStatusApi, prescriptionStatusCheckApi, submitPrescriptionApi } from "./prescriptions";

export { runOperation, type CallContext, type ProviderApiDeps, type ProviderApiOp } from "./api";
export { authenticate, pruneJwtReplays, publicReason, type AuthFailure, type AuthResult, type PublicAuthReason } from "./auth";
export { providerApiConfig, parseProviderApiConfig, type ProviderApiConfig } from "./config";
export { openApiDocument } from "./openapi";
export { EXCHANGE_API_CHANNEL, SUBMISSION_ID_SYSTEM, SUBMISSION_STATUS_SYSTEM, acknowledgement, statusParameters } from "./claims";

export interface ProviderApi {
  eligibilityCheck(request: Request): Promise<Response>;
  coverage(request: Request, id: string): Promise<Response>;
  submitClaim(request: Request): Promise<Response>;
  claimStatus(request: Request, id: string): Promise<Response>;
  /** Decision 046: cancel (in process) or nullify (decided) on the platform with the exchange's reason. */
  cancelClaim(request: Request, id: string): Promise<Response>;
  /** Decision 046: ask the platform now; the status Parameters with what it said. */
  statusCheck(request: Request, id: string): Promise<Response>;
  /** Decision 114: a new version of a decided prior authorization (same preAuthRef, related prior). */
  changeAuthorization(request: Request, id: string): Promise<Response>;
  /** Decision 115: information sent to the payer unasked about a claim or an authorization. */
  sendEvidence(request: Request, id: string): Promise<Response>;
  /** Eligibility ahead of the visit (docs/decisions/044): a visit list in, its bad items and run out. */
  importVisits(request: Request): Promise<Response>;
  visitsStatus(request: Request, id: string): Promise<Response>;
  /** Prescription verification (docs/decisions/116): a prescription in, its answer read. */
  submitPrescription(request: Request): Promise<Response>;
  prescriptionStatus(request: Request, id: string): Promise<Response>;
  /** Decision 121: cancel, status check, appeal and information sent unasked, on a prescription. */
  cancelPrescription(request: Request, id: string): Promise<Response>;
  prescriptionStatusCheck(request: Request, id: string): Promise<Response>;
  appealPrescription(request: Request, id: string): Promise<Response>;
  prescriptionEvidence(request: Request, id: string): Promise<Response>;
  openApi(request: Request): Promise<Response>;
}

export function createProviderApi(deps: ProviderApiDeps): ProviderApi {
  return {
    eligibilityCheck: (request) => runOperation("eligibility.check", request, deps, (ctx) => eligibilityCheck(ctx, request)),
    coverage: (request, id) => runOperation("coverage.read", request, deps, (ctx) => readCoverage(ctx, id)),
    submitClaim: (request) => runOperation("claim.submit", request, deps, (ctx) => submitClaim(ctx, request)),
    claimStatus: (request, id) => runOperation("claim.status", request, deps, (ctx) => claimStatus(ctx, id)),
    cancelClaim: (request, id) => runOperation("claim.cancel", request, deps, (ctx) => cancelClaim(ctx, request, id)),
    statusCheck: (request, id) => runOperation("claim.status-check", request, deps, (ctx) => statusCheck(ctx, id)),
    changeAuthorization: (request, id) => runOperation("claim.change", request, deps, (ctx) => changeAuthorization(ctx, request, id)),
    sendEvidence: (request, id) => runOperation("claim.evidence", request, deps, (ctx) => sendEvidenceApi(ctx, request, id)),
    importVisits: (request) => runOperation("visits.import", request, deps, (ctx) => importVisits(ctx, request)),
    visitsStatus: (request, id) => runOperation("visits.status", request, deps, (ctx) => visitsStatus(ctx, id)),
    submitPrescription: (request) => runOperation("prescription.submit", request, deps, (ctx) => submitPrescriptionApi(ctx, request)),
    prescriptionStatus: (request, id) => runOperation("prescription.status", request, deps, (ctx) => prescriptionStatusApi(ctx, id)),
    cancelPrescription: (request, id) => runOperation("prescription.cancel", request, deps, (ctx) => cancelPrescriptionApi(ctx, request, id)),
    prescriptionStatusCheck: (request, id) => runOperation("prescription.status-check", request, deps, (ctx) => prescriptionStatusCheckApi(ctx, id)),
    appealPrescription: (request, id) => runOperation("prescription.appeal", request, deps, (ctx) => appealPrescriptionApi(ctx, request, id)),
    prescriptionEvidence: (request, id) => runOperation("prescription.evidence", request, deps, (ctx) => prescriptionEvidenceApi(ctx, request, id)),
    async openApi() {
      return new Response(JSON.stringify(openApiDocument(deps.config), null, 2), {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
      });
    },
  };
}

/** The process-wide API: the portal database and platform client, configuration from the environment. */
export function providerApi(): ProviderApi {
  // The configuration was validated at boot (lib/env.ts): a bad value never gets this far.
  return createProviderApi({ db: getDb, platform: getPlatformPort, port: getPlatformPort, config: providerApiConfig() });
}
