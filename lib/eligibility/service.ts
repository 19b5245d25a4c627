import { describeError } from "@/lib/http";
import { randomUUID } from "node:crypto";
import type { CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { audit, type Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { buildEligibilityRequest } from "@/lib/fhir";
import { getCoverage, getPatient } from "@/lib/patients";
import {
  PlatformError,
  PlatformRateLimitedError,
  PlatformUnavailableError,
  type PlatformClient,
} from "@/lib/platform";
import type { EligibilityField, EligibilityFormValues } from "./schema";
import { errorField, saveCheck, toView, type EligibilityCheckView, type ErrorField } from "./store";
import { lineWriter } from "@/lib/log";

/**
 * Typed platform errors are recognised by name, not `instanceof`: in the Next.js server the
 * process-wide client is created by the instrumentation bundle, whose copy of the error classes
 * is not the one a server action's bundle imports, so `instanceof` fails there.
 */
function isError<T extends Error>(error: unknown, type: abstract new (...args: never[]) => T, name: string): error is T {
  return error instanceof type || (error instanceof Error && error.name === name);
}

export interface EligibilityDeps {
  db: Db;
  client: Pick<PlatformClient, "checkEligibility">;
  providerOrgId: string;
  now?: () => Date;
  /** Default: the portal log (lib/log); lines carry codes and ids of our own records only. */
  warn?: (line: string) => void;
  /**
   * Batch checks (lib/visits): wait for a permit at `batch` priority instead of answering
   * rate_limited at once (decision 043). Default: interactive, no wait.
   */
  batch?: boolean;
  /** The request identifier to use (a batch run records it before sending; decision 044). */
  identifierValue?: string;
  /**
   * PLATFORM_PROTOCOL: in messaging a patient without a marital status or a coverage without its
   * class is a field error before anything is sent (the exchange refuses them, decision 103).
   */
  protocol?: "rest" | "messaging";
}


export type CheckOutcome =
  /** The platform answered with a CoverageEligibilityResponse (in force or not): stored. */
  | { kind: "answered"; check: EligibilityCheckView }
  /** The platform refused (OperationOutcome): stored; shown on `field` with the code's resolution. */
  | { kind: "rejected"; check: EligibilityCheckView; code?: string; status: number; field: ErrorField }
  /** Our own checks failed (unknown patient, a coverage of someone else): nothing was sent. */
  | { kind: "invalid"; fieldErrors: Partial<Record<EligibilityField, string[]>> }
  /**
   * Over the eligibility limit: the check runs after `retryAfterMs` (at `retryAt`). `source`:
   * the shared limiter had no permit free (`limiter`, nothing was sent) or the platform answered
   * 429 with Retry-After (`platform`).
   */
  | { kind: "rate_limited"; retryAfterMs: number; retryAt: string; source: "limiter" | "platform" }
  /** The platform is slow or down (or answered nonsense): try again later. */
  | { kind: "unavailable"; reason: string };

/**
 * Sends one eligibility check for a registered patient and one of their coverages, stores the
 * request and the answer (in force, not in force, or the platform's refusal) and audits it.
 * Never throws for platform trouble: every outcome is a value the form can show.
 */
export async function runEligibilityCheck(deps: EligibilityDeps, caller: Caller, input: EligibilityFormValues): Promise<CheckOutcome> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const warn = deps.warn ?? lineWriter("warn");
  const patient = await getPatient(db, input.patientId);
  if (!patient) return { kind: "invalid", fieldErrors: { patientId: ["patientUnknown"] } };
  const coverage = await getCoverage(db, input.coverageId);
  if (!coverage || coverage.patientId !== patient.id) return { kind: "invalid", fieldErrors: { coverageId: ["coverageUnknown"] } };
  if (deps.protocol === "messaging" && (!patient.maritalStatus || !coverage.coverageClass)) {
    return { kind: "invalid", fieldErrors: { ...(!patient.maritalStatus ? { patientId: ["maritalStatusMissing"] } : {}), ...(!coverage.coverageClass ? { coverageId: ["coverageClassMissing"] } : {}) } };
  }

  const requestId = randomUUID();
  const identifierValue = deps.identifierValue ?? randomUUID();
  const request: CoverageEligibilityRequest = buildEligibilityRequest({
    identifierValue,
    nationalId: patient.nationalId,
    insurerId: coverage.insurerId,
    providerOrgId: deps.providerOrgId,
    servicedDate: input.servicedDate,
    purposes: input.purposes,
    categories: input.categories,
    created: now(),
  });
  const base = {
    patientId: patient.id,
    coverageId: coverage.id,
    insurerId: coverage.insurerId,
    servicedDate: input.servicedDate,
    purposes: [...input.purposes],
    categories: [...input.categories],
    requestId,
    identifierValue,
    request: { ...request },
    checkedBy: caller.userId ?? null,
  };
  const related = {
    patient: { id: patient.id, nationalId: patient.nationalId, givenName: patient.givenName, familyName: patient.familyName },
    insurer: { id: coverage.insurerId, nameEn: coverage.insurerNameEn, nameAr: coverage.insurerNameAr },
    coverage: { id: coverage.id, memberId: coverage.memberId, coverageRef: coverage.coverageRef },
    ...(caller.userName ? { checkedByName: caller.userName } : {}),
  };
  const auditBase = { actor: caller.actor, requestId: caller.requestId, ip: caller.ip };

  try {
    const result = await deps.client.checkEligibility(request, deps.batch ? { requestId, waitForPermit: true, priority: "batch" } : { requestId, waitForPermit: false });
    const benefits = result.view;
    const row = await saveCheck(db, {
      ...base,
      response: { ...result.data },
      responseView: { ...benefits },
      outcome: benefits.inforce ? "in_force" : "not_in_force",
      inforce: benefits.inforce,
      httpStatus: result.status,
    });
    await audit(db, {
      ...auditBase,
      action: "eligibility.check",
      target: { type: "eligibility_check", id: row.id },
      outcome: "success",
      details: { patientId: patient.id, coverageId: coverage.id, result: row.outcome, platformRequestId: requestId },
    });
    return { kind: "answered", check: toView(row, related) };
  } catch (error) {
    if (isError(error, PlatformError, "PlatformError")) {
      const field = errorField(error.code, error.field);
      const row = await saveCheck(db, {
        ...base,
        response: error.outcome ? { ...error.outcome } : null,
        outcome: "rejected",
        inforce: null,
        errorCode: error.code ?? null,
        errorField: field,
        httpStatus: error.status,
      });
      await audit(db, {
        ...auditBase,
        action: "eligibility.check",
        target: { type: "eligibility_check", id: row.id },
        outcome: "failure",
        details: { patientId: patient.id, coverageId: coverage.id, result: "rejected", code: error.code ?? null, status: error.status, platformRequestId: requestId },
      });
      return { kind: "rejected", check: toView(row, related), ...(error.code ? { code: error.code } : {}), status: error.status, field };
    }
    if (isError(error, PlatformRateLimitedError, "PlatformRateLimitedError")) {
      const retryAfterMs = Math.max(1000, Math.ceil(error.retryAfterMs));
      return { kind: "rate_limited", retryAfterMs, retryAt: new Date(now().getTime() + retryAfterMs).toISOString(), source: error.fromPlatform ? "platform" : "limiter" };
    }
    const reason = isError(error, PlatformUnavailableError, "PlatformUnavailableError") ? error.reason : (error as Error).name || "error";
    warn(`[eligibility] check not answered (${reason}) request ${requestId}: ${describeError(error)}`);
    await audit(db, {
      ...auditBase,
      action: "eligibility.check",
      target: { type: "patient", id: patient.id },
      outcome: "failure",
      details: { coverageId: coverage.id, result: "unavailable", reason, platformRequestId: requestId },
    });
    return { kind: "unavailable", reason };
  }
}
