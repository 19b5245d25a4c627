import { audit, type AuditEntry, type Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
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


/**
 * The registry's operations with their audit entries. Audit entries name patients by internal
 * UUID only — never the national ID, a name or the search text.
 */

/**
 * Who an entry is written for: a caller (actions: one entry per call), or the audit writer of a
 * staff page (lib/auth staffPage `ctx.audit`: one entry per user view, docs/decisions/078).
 */
export type AuditedBy = Caller | ((entry: Omit<AuditEntry, "actor" | "requestId" | "ip" | "at">) => Promise<unknown>);

async function record(db: Db, by: AuditedBy, entry: Omit<AuditEntry, "actor" | "requestId" | "ip" | "at">): Promise<void> {
  if (typeof by === "function") await by(entry);
  else await audit(db, { ...entry, actor: by.actor, requestId: by.requestId, ip: by.ip });
}

export async function auditedSearch(db: Db, by: AuditedBy, query: string, limit?: number): Promise<PatientSummary[]> {
  const results = await searchPatients(db, query, limit);
  await record(db, by, { action: "patient.search", outcome: "success", details: { by: searchKind(query), results: results.length } });
  return results;
}

export async function auditedView(db: Db, by: AuditedBy, patientId: string, action = "patient.view"): Promise<Patient | undefined> {
  const patient = await getPatient(db, patientId);
  await record(db, by, {
    action,
    target: { type: "patient", id: patient?.id ?? "unknown" },
    outcome: patient ? "success" : "failure",
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
