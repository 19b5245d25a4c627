import type { Patient as FhirPatient } from "@medplum/fhirtypes";
import { readJsonObject } from "@/lib/api";
import { AppError, fhirResponse as fhirJsonResponse } from "@/lib/errors";
import { IDENTIFIER_SYSTEMS } from "@/lib/fhir";
import { apiClaimAcknowledgement } from "@/lib/submissions";
import { findPatientByNationalId, getPatient } from "@/lib/patients";
import type { GatewayContext } from "./run";
import { pipelineError, submitGatewayClaim } from "./submissions";
import { isUuid } from "@/lib/ids";

/** System of the identifier that carries the portal's own patient id (UUID). */
export const PORTAL_PATIENT_ID_SYSTEM = "https://clinic.example/fhir/patient-id";
const NATIONAL_ID = /^[12]\d{9}$/;

/**
 * GET /fhir/Patient/{id}: `id` is the national ID / Iqama number (the Patient id the platform and
 * every Claim use, `Patient/<nationalId>`) or the portal's patient UUID. The resource's `id` is
 * always the national ID; the portal UUID is carried as a second identifier.
 */
export async function readPatient(ctx: GatewayContext, id: string): Promise<Response> {
  const patient = isUuid(id) ? await getPatient(ctx.db, id) : NATIONAL_ID.test(id) ? await findPatientByNationalId(ctx.db, id) : undefined;
  if (!patient) throw new AppError("not_found", "No patient with this id is registered in the portal.");
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

/**
 * POST /fhir/Claim: a Claim (use claim or preauthorization) through the pipeline, FHIR in and FHIR
 * out: 202 + ClaimResponse `queued` (also 202, with X-Idempotent-Replay, for a replay of the same
 * caller identifier: docs/decisions/032), or an OperationOutcome.
 */
export async function createClaim(ctx: GatewayContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, { maxBytes: ctx.config.maxBodyBytes });
  try {
    const { submission, replay, status } = await submitGatewayClaim(ctx, body, undefined, "Claim");
    return fhirJsonResponse(apiClaimAcknowledgement(submission, ctx.now), status, replay ? { "X-Idempotent-Replay": "true" } : {});
  } catch (error) {
    throw pipelineError(error) ?? error;
  }
}
