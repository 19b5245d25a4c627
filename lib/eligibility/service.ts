import { describeError } from "@/lib/http";
import { randomUUID } from "node:crypto";
import type { CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { audit, type Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { buildEligibilityRequest, type EligibilityPurpose } from "@/lib/fhir";
import { coverageUse, getPatient, listInsurers } from "@/lib/patients";
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
 * Sends one eligibility check for a registered patient and one of their coverages — or, without a
 * coverage, a discovery (guide 7.1, Table 36) to the insurer chosen or to every insurer in turn —
 * stores the request and the answer (in force, not in force, or the platform's refusal) and
 * audits it. Never throws for platform trouble: every outcome is a value the form can show.
 */
/** The form's values; a discovery's insurer and the transfer flag may be left out. */
export type EligibilityCheckInput = Omit<EligibilityFormValues, "insurerId" | "transfer"> & Partial<Pick<EligibilityFormValues, "insurerId" | "transfer">>;

export async function runEligibilityCheck(deps: EligibilityDeps, caller: Caller, input: EligibilityCheckInput): Promise<CheckOutcome> {
  const { db } = deps;
  const patient = await getPatient(db, input.patientId);
  if (!patient) return { kind: "invalid", fieldErrors: { patientId: ["patientUnknown"] } };
  if (!input.coverageId) return runDiscovery(deps, caller, input, patient);
  // The patient's own coverage, or a newborn's mother's within the newborn days (guide 6.5, docs/decisions/110).
  const use = await coverageUse(db, patient, input.coverageId, [input.servicedDate]);
  if (!use.ok) return { kind: "invalid", fieldErrors: { coverageId: [use.reason === "unknown" ? "coverageUnknown" : use.reason === "newborn_too_old" ? "newbornTooOld" : "newbornBeforeBirth"] } };
  const coverage = use.coverage;
  if (deps.protocol === "messaging" && (!patient.maritalStatus || !coverage.coverageClass)) {
    return { kind: "invalid", fieldErrors: { ...(!patient.maritalStatus ? { patientId: ["maritalStatusMissing"] } : {}), ...(!coverage.coverageClass ? { coverageId: ["coverageClassMissing"] } : {}) } };
  }
  return sendCheck(deps, caller, input, patient, {
    insurer: { id: coverage.insurerId, nameEn: coverage.insurerNameEn, nameAr: coverage.insurerNameAr },
    coverage: { id: coverage.id, memberId: coverage.memberId, coverageRef: coverage.coverageRef },
    newborn: !!use.newborn,
  });
}

type PatientRow = NonNullable<Awaited<ReturnType<typeof getPatient>>>;

/**
 * A discovery: the insurer chosen, else every active insurer (in messaging those with a licence on
 * the exchange) in turn until one reports a coverage. Each answer is stored as its own check; the
 * one that found coverages is shown (else the last answer).
 */
async function runDiscovery(deps: EligibilityDeps, caller: Caller, input: EligibilityCheckInput, patient: PatientRow): Promise<CheckOutcome> {
  if (deps.protocol === "messaging" && !patient.maritalStatus) return { kind: "invalid", fieldErrors: { patientId: ["maritalStatusMissing"] } };
  const all = (await listInsurers(deps.db)).filter((i) => i.active && (deps.protocol !== "messaging" || !!i.license));
  const asked = input.insurerId ? all.filter((i) => i.id === input.insurerId) : all;
  if (asked.length === 0) return { kind: "invalid", fieldErrors: { insurerId: ["insurerUnknown"] } };
  let last: CheckOutcome | undefined;
  for (const insurer of asked) {
    const outcome = await sendCheck(deps, caller, input, patient, { insurer: { id: insurer.id, nameEn: insurer.nameEn, nameAr: insurer.nameAr } });
    if (outcome.kind === "answered" && (outcome.check.benefits?.discovered?.length ?? 0) > 0) return outcome;
    if (outcome.kind === "rate_limited" || outcome.kind === "invalid") return outcome;
    // An answer (found nothing) or a refusal is kept over an insurer that did not answer.
    if (!last || outcome.kind === "answered" || (outcome.kind === "rejected" && last.kind === "unavailable")) last = outcome;
  }
  return last!;
}

async function sendCheck(
  deps: EligibilityDeps,
  caller: Caller,
  input: EligibilityCheckInput,
  patient: PatientRow,
  about: { insurer: { id: string; nameEn: string; nameAr: string }; coverage?: { id: string; memberId: string; coverageRef: string }; newborn?: boolean },
): Promise<CheckOutcome> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const warn = deps.warn ?? lineWriter("warn");
  const coverage = about.coverage;
  const purposes: EligibilityPurpose[] = coverage ? [...input.purposes] : ["discovery", ...input.purposes];

  const requestId = randomUUID();
  const identifierValue = deps.identifierValue ?? randomUUID();
  const request: CoverageEligibilityRequest = buildEligibilityRequest({
    identifierValue,
    nationalId: patient.nationalId,
    insurerId: about.insurer.id,
    providerOrgId: deps.providerOrgId,
    servicedDate: input.servicedDate,
    purposes,
    categories: input.categories,
    created: now(),
    ...(input.transfer ? { transfer: true } : {}),
    // A newborn names the mother's coverage and says it is a newborn (guide 7.1.1.1).
    ...(about.newborn && coverage ? { newborn: true, coverageRef: coverage.coverageRef } : {}),
  });
  const base = {
    patientId: patient.id,
    coverageId: coverage?.id ?? null,
    insurerId: about.insurer.id,
    servicedDate: input.servicedDate,
    purposes: [...purposes],
    categories: [...input.categories],
    requestId,
    identifierValue,
    request: { ...request },
    checkedBy: caller.userId ?? null,
  };
  const related = {
    patient: { id: patient.id, nationalId: patient.nationalId, givenName: patient.givenName, familyName: patient.familyName },
    insurer: about.insurer,
    ...(coverage ? { coverage } : {}),
    ...(caller.userName ? { checkedByName: caller.userName } : {}),
  };
  const auditBase = { actor: caller.actor, requestId: caller.requestId, ip: caller.ip };
  const coverageId = coverage?.id ?? null;

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
      details: { patientId: patient.id, coverageId, result: row.outcome, platformRequestId: requestId, ...(coverage ? {} : { discovered: benefits.discovered?.length ?? 0 }) },
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
        details: { patientId: patient.id, coverageId, result: "rejected", code: error.code ?? null, status: error.status, platformRequestId: requestId },
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
      details: { coverageId, result: "unavailable", reason, platformRequestId: requestId },
    });
    return { kind: "unavailable", reason };
  }
}
