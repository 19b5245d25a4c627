import { randomUUID } from "node:crypto";
import type { CoverageEligibilityRequest, CoverageEligibilityResponse } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import { eligibilityChecks, patients } from "@/lib/db";
import {
  CoverageEligibilityRequestSchema,
  ELIGIBILITY_IDENTIFIER_SYSTEM_BASE,
  nphies,
  parseReference,
} from "@/lib/fhir";
import { coverageIdByRef, firstCoverageIdWith, NEWBORN_DAYS, requestCoverageUse } from "@/lib/patients";
import { PlatformError } from "@/lib/platform";
import type { CallContext } from "./api";
import { readJsonObject } from "@/lib/api";
import { AppError, fhirResponse } from "@/lib/errors";
import { platformProblem } from "./platform-errors";
import { expectResourceType, forceProvider, parseResource } from "./validation";
// The same vocabulary as checks made in the portal: the eligibility form's field a refusal concerns.
import { errorField } from "@/lib/eligibility";

const RT = "CoverageEligibilityRequest";

/** Body → a CoverageEligibilityRequest the platform may receive (provider = this clinic, an identifier). */
export function validateEligibilityRequest(body: Record<string, unknown>, providerOrgId: string): CoverageEligibilityRequest {
  expectResourceType(body, RT);
  const parsed = parseResource(CoverageEligibilityRequestSchema, forceProvider(body, RT, providerOrgId), RT);
  const identifier = parsed.identifier?.some((i) => i.value)
    ? parsed.identifier
    : [{ system: `${ELIGIBILITY_IDENTIFIER_SYSTEM_BASE}/${providerOrgId}`, value: randomUUID() }, ...(parsed.identifier ?? [])];
  return { ...parsed, identifier } as CoverageEligibilityRequest;
}

/** POST /api/exchange/eligibility/check */
export async function eligibilityCheck(ctx: CallContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, { maxBytes: ctx.deps.config.maxBodyBytes });
  const eligibilityRequest = validateEligibilityRequest(body, ctx.deps.config.providerOrgId);
  await checkNewborn(ctx, eligibilityRequest);
  if (ctx.deps.config.protocol === "messaging") await requireRegistered(ctx, eligibilityRequest);
  const { response } = await sendAndStore(ctx, eligibilityRequest);
  return fhirResponse(response, 200);
}

/**
 * Sends a check to the platform and stores it in eligibility_checks like a check made in the portal
 * (when the patient is registered in the portal: the table refers to the portal's patient record).
 * Platform refusals are stored too, then answered as the platform's OperationOutcome.
 */
export async function sendAndStore(
  ctx: CallContext,
  eligibilityRequest: CoverageEligibilityRequest,
  known?: { patientId: string; coverageId: string },
): Promise<{ response: CoverageEligibilityResponse; checkId?: string }> {
  const platform = await ctx.deps.platform();
  const platformRequestId = randomUUID();
  ctx.audit.details.platformRequestId = platformRequestId;
  const subject = known ?? (await portalRecordsFor(ctx, eligibilityRequest));
  const base = subject
    ? {
        patientId: subject.patientId,
        coverageId: subject.coverageId ?? null,
        insurerId: parseReference(eligibilityRequest.insurer?.reference, "Organization")?.id ?? "",
        servicedDate: eligibilityRequest.servicedDate ?? ctx.now.toISOString().slice(0, 10),
        purposes: [...(eligibilityRequest.purpose ?? [])],
        categories: (eligibilityRequest.item ?? []).map((i) => i.category?.coding?.[0]?.code).filter((c): c is string => typeof c === "string"),
        requestId: platformRequestId,
        identifierValue: eligibilityRequest.identifier?.find((i) => i.value)?.value ?? platformRequestId,
        request: { ...eligibilityRequest },
        checkedBy: null,
      }
    : undefined;
  try {
    const result = await platform.checkEligibility(eligibilityRequest, { requestId: platformRequestId, waitForPermit: false });
    const inforce = result.data.insurance?.[0]?.inforce === true;
    let checkId: string | undefined;
    if (base) {
      const [row] = await ctx.db
        .insert(eligibilityChecks)
        .values({
          ...base,
          response: { ...result.data },
          outcome: inforce ? "in_force" : "not_in_force",
          inforce,
          httpStatus: result.status,
        })
        .returning({ id: eligibilityChecks.id });
      checkId = row?.id;
    }
    ctx.audit.target = checkId ? { type: "eligibility_check", id: checkId } : undefined;
    ctx.audit.details.result = inforce ? "in_force" : "not_in_force";
    ctx.audit.details.stored = Boolean(checkId);
    return { response: result.data, checkId };
  } catch (error) {
    if (error instanceof PlatformError && base) {
      const [row] = await ctx.db
        .insert(eligibilityChecks)
        .values({
          ...base,
          response: error.outcome ? { ...error.outcome } : null,
          outcome: "rejected",
          inforce: null,
          errorCode: error.code ?? null,
          errorField: errorField(error.code, error.field),
          httpStatus: error.status,
        })
        .returning({ id: eligibilityChecks.id });
      if (row) ctx.audit.target = { type: "eligibility_check", id: row.id };
      ctx.audit.details.stored = Boolean(row);
    }
    if (error instanceof PlatformError) ctx.audit.details.result = "rejected";
    throw platformProblem(error);
  }
}

/**
 * In messaging the portal sends the patient and the coverage as entries of the message (decision
 * 075): a check for a patient it has not registered, or without a coverage with that insurer, would
 * go out without them and the exchange would refuse it. Refused 422 naming what to register first.
 */
async function requireRegistered(ctx: CallContext, request: CoverageEligibilityRequest): Promise<void> {
  const nationalId = parseReference(request.patient?.reference, "Patient")?.id ?? "";
  const insurerId = parseReference(request.insurer?.reference, "Organization")?.id ?? "";
  const records = await portalRecordsFor(ctx, request);
  if (!records) {
    throw new AppError("unprocessable", `Patient/${nationalId} is not registered in the portal: register the patient (POST /api/exchange/visits with register, or the portal's Patients page) and their coverage with ${insurerId}, then check again.`, {
      reason: "patient_not_registered",
      fields: [{ path: "CoverageEligibilityRequest.patient", message: "register the patient and their coverage in the portal first" }],
    });
  }
  // A discovery (guide 7.1, Table 36) asks the insurer which coverages it holds: it names none.
  const discovery = (request.purpose ?? []).includes("discovery");
  if (discovery && (request.insurance ?? []).length > 0) {
    throw new AppError("unprocessable", "A discovery names no coverage: leave out CoverageEligibilityRequest.insurance; the insurer reports the coverages it holds for the patient.", {
      reason: "discovery_with_coverage",
      fields: [{ path: "CoverageEligibilityRequest.insurance", message: "a discovery names no coverage (guide 7.1, Table 36)" }],
    });
  }
  if (!records.coverageId && !discovery) {
    throw new AppError("unprocessable", `Patient/${nationalId} has no coverage with ${insurerId} in the portal: record the coverage (member number and coverage id) first, then check again.`, {
      reason: "coverage_not_registered",
      fields: [{ path: "CoverageEligibilityRequest.insurer", message: `record the patient's coverage with ${insurerId} in the portal first` }],
    });
  }
}

/** The portal's patient (by national ID) and their coverage with the insurer, when registered. */
/**
 * A newborn's check on the mother's coverage (guide 6.5 and 7.1.1.1, docs/decisions/110): the
 * request names her coverage (insurance) and carries extension-newborn; the baby within its 30
 * days on the service date — else 422 naming the element, nothing sent.
 */
async function checkNewborn(ctx: CallContext, request: CoverageEligibilityRequest): Promise<void> {
  const nationalId = parseReference(request.patient?.reference, "Patient")?.id;
  const coverageRef = parseReference((request.insurance?.find((i) => i.focal) ?? request.insurance?.[0])?.coverage?.reference, "Coverage")?.id;
  if (!nationalId || !coverageRef) return;
  const day = request.servicedDate ?? request.servicedPeriod?.start?.slice(0, 10) ?? ctx.now.toISOString().slice(0, 10);
  const use = await requestCoverageUse(ctx.db, nationalId, coverageRef, [day], nphies.isNewbornRequest(request as unknown as Record<string, unknown>));
  if (use.ok) return;
  if (use.reason === "newborn_flag_missing") {
    throw new AppError("unprocessable", `${coverageRef} is the mother's coverage of this newborn: the request carries extension-newborn (${nphies.EXTENSIONS.newborn}, valueBoolean true).`, {
      reason: "newborn_flag",
      fields: [{ path: `${RT}.extension`, message: "required: extension-newborn (the coverage is the mother's)" }],
    });
  }
  throw new AppError("unprocessable", use.reason === "newborn_too_old" ? `The baby is ${use.age} days old on the service date: the mother's coverage covers a newborn for ${NEWBORN_DAYS} days; check the baby's own coverage.` : "The service date is before the baby's birth.", {
    reason: use.reason,
    fields: [{ path: `${RT}.insurance[0].coverage`, message: use.reason === "newborn_too_old" ? `the mother's coverage covers the newborn for ${NEWBORN_DAYS} days only` : "the service date is before the birth" }],
  });
}

async function portalRecordsFor(ctx: CallContext, request: CoverageEligibilityRequest): Promise<{ patientId: string; coverageId?: string } | undefined> {
  const nationalId = parseReference(request.patient?.reference, "Patient")?.id;
  const insurerId = parseReference(request.insurer?.reference, "Organization")?.id;
  if (!nationalId) return undefined;
  const [patient] = await ctx.db.select({ id: patients.id }).from(patients).where(eq(patients.nationalId, nationalId));
  if (!patient) return undefined;
  // A newborn's check names the mother's coverage (checkNewborn let it through): that coverage.
  const named = parseReference(request.insurance?.[0]?.coverage?.reference, "Coverage")?.id;
  if (named && nphies.isNewbornRequest(request as unknown as Record<string, unknown>)) {
    const mothers = await coverageIdByRef(ctx.db, named);
    if (mothers) return { patientId: patient.id, coverageId: mothers };
  }
  const coverageId = insurerId ? await firstCoverageIdWith(ctx.db, patient.id, insurerId) : undefined;
  return { patientId: patient.id, coverageId };
}
