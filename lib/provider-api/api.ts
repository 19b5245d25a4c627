import type { OrgClient } from "@/lib/api-access";
import { runApi, type ApiCall, type ApiFamily, type AuthStrategy } from "@/lib/api";
import { API_ERROR_SYSTEM, AppError } from "@/lib/errors";
import type { AuditActor } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { PlatformClient, PortSource } from "@/lib/platform";
import { authenticate, publicReason } from "./auth";
import type { ProviderApiConfig } from "./config";

/** What the exchange API needs; route files pass the process-wide ones, tests their own. */
export interface ProviderApiDeps {
  db: () => Promise<Db>;
  platform: () => Promise<Pick<PlatformClient, "checkEligibility">>;
  /** Cancel and status check (docs/decisions/046): the port, or the facility ports — each submission goes out through its facility. */
  port: PortSource;
  config: ProviderApiConfig;
  now?: () => Date;
  /** Default: the portal log (lib/log); lines carry ids and codes only. */
  warn?: (line: string) => void;
  /** Time zone of the clinic's calendar day (service date of coverage checks); default CLINIC_TIME_ZONE or Asia/Riyadh. */
  timeZone?: string;
}

export type ProviderApiOp = "eligibility.check" | "coverage.read" | "claim.submit" | "claim.status" | "claim.cancel" | "claim.status-check" | "claim.change" | "claim.evidence" | "visits.import" | "visits.status" | "prescription.submit" | "prescription.status" | "prescription.cancel" | "prescription.status-check" | "prescription.appeal" | "prescription.evidence";

/** One authenticated call: the kernel's call plus the API's dependencies and the organization client. */
export interface CallContext extends ApiCall<OrgClient> {
  deps: ProviderApiDeps;
  client: OrgClient;
}

/** The exchange API's strategy: `Authorization: Bearer <JWT>` signed by a registered organization key. */
export function orgJwtStrategy(config: ProviderApiConfig): AuthStrategy<OrgClient> {
  return async (request, db, now) => {
    const auth = await authenticate(db, request.headers.get("authorization"), config, now);
    if (auth.ok) {
      const actor: AuditActor = { kind: "api", id: auth.client.clientId, name: auth.client.name };
      return { ok: true, value: { principal: auth.client, actor, rate: { bucket: `exchange:org:${auth.client.clientId}`, limit: config.ratePerMinute } } };
    }
    const reason = publicReason(auth.failure);
    return {
      ok: false,
      error: new AppError("unauthenticated", `Authentication failed (${reason}).`, {
        reason: auth.failure,
        issues: [{ severity: "error", code: reason === "expired" ? "expired" : "login", details: { coding: [{ system: API_ERROR_SYSTEM, code: "unauthenticated" }], text: reason }, diagnostics: `Authentication failed (${reason})` }],
        headers: { "WWW-Authenticate": `Bearer realm="exchange", error="invalid_token", error_description="${reason}"` },
      }),
      actor: auth.client ? { kind: "api", id: auth.client.clientId, name: auth.client.name } : undefined,
      details: auth.clientId && !auth.client ? { claimedIssuer: auth.clientId.slice(0, 100) } : undefined,
    };
  };
}

/** The operations that do the heavy work, under the kernel's per-caller concurrency guard (docs/decisions/093). */
const GUARDED_OPS = new Set<string>(["exchange.claim.submit", "exchange.visits.import", "exchange.prescription.submit", "exchange.prescription.appeal"]);

function family(deps: ProviderApiDeps): ApiFamily<OrgClient> {
  return { name: "exchange-api", style: "fhir", db: deps.db, now: deps.now, warn: deps.warn, authenticate: orgJwtStrategy(deps.config), guarded: (action) => GUARDED_OPS.has(action) };
}

/**
 * Runs one operation on the kernel (lib/api): organization JWT (401), its rate bucket (429), the
 * work, errors as OperationOutcome, one audit entry `exchange.<op>`.
 */
export async function runOperation(op: ProviderApiOp, request: Request, deps: ProviderApiDeps, work: (ctx: CallContext) => Promise<Response>): Promise<Response> {
  return runApi(family(deps), `exchange.${op}`, request, (call) => work(Object.assign(call, { deps, client: call.principal })));
}
