import { audit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { callerOf } from "./caller";
import {
  addCoverage,
  getPatient,
  registerPatient,
  searchKind,
  updatePatient,
  searchPatients,
  type AddCoverageResult,
  type Patient,
  type PatientSummary,
  type RegisterResult,
  type UpdateResult,
} from "./registry";
import type { AddCoverageInput, RegisterPatientInput, UpdatePatientInput } from "./schemas";

type Caller = Awaited<ReturnType<typeof callerOf>>;

/**
 * The registry's operations with their audit entries. Audit entries name patients by internal
 * UUID only — never the national ID, a name or the search text.
 */
export async function auditedSearch(db: Db, caller: Caller, query: string, limit?: number): Promise<PatientSummary[]> {
  const results = await searchPatients(db, query, limit);
  await audit(db, {
    actor: caller.actor,
    action: "patient.search",
    outcome: "success",
    requestId: caller.requestId,
    ip: caller.ip,
    details: { by: searchKind(query), results: results.length },
  });
  return results;
}

export async function auditedView(db: Db, caller: Caller, patientId: string, action = "patient.view"): Promise<Patient | undefined> {
  const patient = await getPatient(db, patientId);
  await audit(db, {
    actor: caller.actor,
    action,
    target: { type: "patient", id: patient?.id ?? "unknown" },
    outcome: patient ? "success" : "failure",
    requestId: caller.requestId,
    ip: caller.ip,
    ...(patient ? {} : { details: { reason: "not_found" } }),
  });
  return patient;
}

export async function auditedRegister(db: Db, caller: Caller, input: RegisterPatientInput): Promise<RegisterResult> {
  const result = await registerPatient(db, input, caller.userId);
  await audit(db, {
    actor: caller.actor,
    action: "patient.register",
    target: { type: "patient", id: result.ok ? result.patient.id : result.existingId },
    outcome: result.ok ? "success" : "failure",
    requestId: caller.requestId,
    ip: caller.ip,
    ...(result.ok ? {} : { details: { reason: "duplicate_national_id" } }),
  });
  return result;
}

/** A correction: audited with the names of the fields that changed, never their values. */
export async function auditedUpdate(db: Db, caller: Caller, input: UpdatePatientInput): Promise<UpdateResult> {
  const result = await updatePatient(db, input);
  await audit(db, {
    actor: caller.actor,
    action: "patient.update",
    target: { type: "patient", id: input.id },
    outcome: result.ok ? "success" : "failure",
    requestId: caller.requestId,
    ip: caller.ip,
    details: result.ok ? { changed: result.changed } : { reason: result.reason },
  });
  return result;
}

export async function auditedAddCoverage(db: Db, caller: Caller, input: AddCoverageInput): Promise<AddCoverageResult> {
  const result = await addCoverage(db, input, caller.userId);
  await audit(db, {
    actor: caller.actor,
    action: "coverage.create",
    target: { type: "patient", id: input.patientId },
    outcome: result.ok ? "success" : "failure",
    requestId: caller.requestId,
    ip: caller.ip,
    details: result.ok ? { coverageId: result.coverage.id, insurerId: result.coverage.insurerId } : { reason: result.reason },
  });
  return result;
}
