import type { ClaimResponse, Patient as FhirPatient } from "@medplum/fhirtypes";
import { IDENTIFIER_SYSTEMS, PORTAL_SUBMISSION_STATUS_EXTENSION } from "@/lib/fhir";
import type { Submission } from "@/lib/exchange";
import { findPatientByNationalId, getPatient } from "@/lib/patients";
import { GatewayError, fhirJsonResponse, readJsonObject } from "./http";
import type { GatewayContext } from "./run";
import { pipelineError, submitThroughPipeline, validateClaim } from "./submissions";
import { isUuid } from "@/lib/ids";

/** System of the identifier that carries the portal's own patient id (UUID). */
export const PORTAL_PATIENT_ID_SYSTEM = "https://clinic.example/fhir/patient-id";
/** System of the identifier that names a submission in the portal (same as the exchange API's). */
export const GATEWAY_SUBMISSION_ID_SYSTEM = "https://clinic.example/fhir/submission-id";
/** System of the portal status carried in the acknowledgement's extension. */
/** CodeSystem of the portal's submission states (the extension itself is PORTAL_SUBMISSION_STATUS_EXTENSION). */
export const GATEWAY_SUBMISSION_STATUS_SYSTEM = "https://clinic.example/fhir/CodeSystem/submission-status";

const NATIONAL_ID = /^[12]\d{9}$/;

/**
 * GET /fhir/Patient/{id}: `id` is the national ID / Iqama number (the Patient id the platform and
 * every Claim use, `Patient/<nationalId>`) or the portal's patient UUID. The resource's `id` is
 * always the national ID; the portal UUID is carried as a second identifier.
 */
export async function readPatient(ctx: GatewayContext, id: string): Promise<Response> {
  const patient = isUuid(id) ? await getPatient(ctx.db, id) : NATIONAL_ID.test(id) ? await findPatientByNationalId(ctx.db, id) : undefined;
  if (!patient) throw new GatewayError(404, "not_found", "No patient with this id is registered in the portal.");
  ctx.audit.target = { type: "patient", id: patient.id };
  const resource: FhirPatient = {
    resourceType: "Patient",
    id: patient.nationalId,
    meta: { lastUpdated: patient.updatedAt.toISOString() },
    identifier: [
      { use: "official", system: IDENTIFIER_SYSTEMS.nationalId, value: patient.nationalId },
      { use: "secondary", system: PORTAL_PATIENT_ID_SYSTEM, value: patient.id },
    ],
    active: true,
    name: [{ use: "official", text: `${patient.givenName} ${patient.familyName}`, family: patient.familyName, given: [patient.givenName] }],
    ...(patient.phone ? { telecom: [{ system: "phone", value: patient.phone, use: "mobile" }] } : {}),
    gender: patient.gender,
    birthDate: patient.birthDate,
  };
  return fhirJsonResponse(resource, 200);
}

function outcomeOf(status: Submission["status"]): ClaimResponse["outcome"] {
  switch (status) {
    case "complete":
    case "denied":
      return "complete";
    case "partial":
      return "partial";
    case "rejected":
    case "failed":
    case "cancelled":
      return "error";
    default:
      return "queued";
  }
}

/** The 202 body: a ClaimResponse with outcome `queued` naming the submission. */
export function claimAcknowledgement(submission: Submission, now: Date): ClaimResponse {
  const claim = submission.claim as { type?: ClaimResponse["type"]; patient?: { reference?: string }; provider?: { reference?: string } };
  return {
    resourceType: "ClaimResponse",
    identifier: [
      { system: GATEWAY_SUBMISSION_ID_SYSTEM, value: submission.id },
      ...(submission.identifierSystem && submission.identifierValue ? [{ system: submission.identifierSystem, value: submission.identifierValue }] : []),
    ],
    status: "active",
    type: claim.type ?? { coding: [{ code: "institutional" }] },
    use: submission.kind,
    patient: { reference: claim.patient?.reference ?? `Patient/${submission.patientId}` },
    created: now.toISOString(),
    insurer: submission.insurerId ? { reference: `Organization/${submission.insurerId}` } : { display: "Not known until the platform answers" },
    ...(claim.provider?.reference ? { requestor: { reference: claim.provider.reference } } : {}),
    outcome: outcomeOf(submission.status),
    disposition: `Submission ${submission.status}`,
    extension: [{ url: PORTAL_SUBMISSION_STATUS_EXTENSION, valueCode: submission.status }],
  };
}

/**
 * POST /fhir/Claim: a Claim (use claim or preauthorization) through the pipeline, FHIR in and FHIR
 * out: 202 + ClaimResponse `queued` (200 for a replay of the same caller identifier), or an
 * OperationOutcome.
 */
export async function createClaim(ctx: GatewayContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, ctx.config.maxBodyBytes);
  const use = body.use;
  if (use !== "claim" && use !== "preauthorization") {
    throw new GatewayError(422, "invalid_data", "Claim.use must be claim or preauthorization.", { issues: [{ path: "Claim.use", message: "must be claim or preauthorization" }] });
  }
  try {
    const claim = validateClaim(body, use, ctx.config.providerOrgId, ctx.config.allowSandboxTestIds, "Claim");
    const { submission, replay } = await submitThroughPipeline(ctx, claim, use, "Claim");
    ctx.audit.target = { type: "submission", id: submission.id };
    ctx.audit.details.kind = use;
    ctx.audit.details.replay = replay;
    return fhirJsonResponse(claimAcknowledgement(submission, ctx.now), replay ? 200 : 202, replay ? { "X-Idempotent-Replay": "true" } : {});
  } catch (error) {
    throw pipelineError(error) ?? error;
  }
}
