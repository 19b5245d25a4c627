import { registerNewborn, type RegisterNewbornResult } from "./newborn";
import { changeOfflineEligibility, recordOfflineEligibility, type ChangeOfflineResult, type OfflineEligibility, type RecordOfflineResult } from "./offline";
import type { ChangeOfflineEligibilityInput, RecordOfflineEligibilityInput } from "./offline-schema";
import type { RegisterNewbornInput } from "./newborn-schema";
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
  type PlannedUnder,
  type SentUnder,
  type UpdateResult,
} from "./registry";
import type { AddCoverageInput, RegisterPatientInput, UpdatePatientInput } from "./schemas";
import type * as mds from "@/lib/fhir/mds";
import { lookupCodes, mdsCodeLists } from "@/lib/terminology";


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

/**
 * The occupation and religion lists as the catalogue holds them (the clinic's imports or the demo
 * entries, decision 118): what the registration form offers.
 */
export async function patientCodeLists(db: Db): Promise<{ occupation: mds.Labelled[]; religion: mds.Labelled[] }> {
  const lists = await mdsCodeLists(db);
  return { occupation: [...lists.occupation], religion: [...lists.religion] };
}

/** An occupation or religion the catalogue's lists do not hold, as field errors (the form offers only theirs). */
export async function patientListProblems(db: Db, input: Pick<RegisterPatientInput, "occupation" | "religion">): Promise<Record<string, string[]> | undefined> {
  const out: Record<string, string[]> = {};
  for (const field of ["occupation", "religion"] as const) {
    const code = input[field];
    if (code && (await lookupCodes(db, field, [code])).length === 0) out[field] = [`${field}Invalid`];
  }
  return Object.keys(out).length > 0 ? out : undefined;
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

/**
 * A correction: audited with the names of the fields that changed, never their values.
 * `sentUnder` answers whether anything was sent under the current number (lib/submissions'
 * `hasSubmissionsFor`), `plannedUnder` whether a visit is planned under it (lib/visits'
 * `hasVisitsFor`), both given by the caller: the registry may not ask a higher layer.
 */
export async function auditedUpdate(db: Db, caller: Caller, input: UpdatePatientInput, sentUnder: SentUnder, plannedUnder: PlannedUnder): Promise<UpdateResult> {
  const result = await updatePatient(db, input, sentUnder, plannedUnder);
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

/** Registers a newborn from the mother's page (docs/decisions/110), audited as a registration naming the mother. */
export async function auditedRegisterNewborn(db: Db, caller: Caller, input: RegisterNewbornInput): Promise<RegisterNewbornResult> {
  return db.transaction(async (tx) => {
    const result = await registerNewborn(tx as unknown as Db, input, caller.userId);
    await audit(tx as unknown as Db, {
      actor: caller.actor,
      action: "patient.register_newborn",
      target: { type: "patient", id: result.ok ? result.patient.id : result.reason === "duplicate" ? result.existingId : input.motherId },
      outcome: result.ok ? "success" : "failure",
      requestId: caller.requestId,
      ip: caller.ip,
      details: result.ok ? { motherId: input.motherId } : { reason: result.reason },
    });
    return result;
  });
}

/** Records an offline eligibility (docs/decisions/111), audited with the coverage (never the reference). */
export async function auditedRecordOfflineEligibility(db: Db, caller: Caller, input: RecordOfflineEligibilityInput): Promise<RecordOfflineResult> {
  return db.transaction(async (tx) => {
    const result = await recordOfflineEligibility(tx as unknown as Db, input, caller.userId);
    await audit(tx as unknown as Db, {
      actor: caller.actor,
      action: "eligibility.offline_record",
      target: { type: "patient", id: input.patientId },
      outcome: result.ok ? "success" : "failure",
      requestId: caller.requestId,
      ip: caller.ip,
      details: result.ok ? { coverageId: input.coverageId, givenOn: input.givenOn } : { reason: result.reason },
    });
    return result;
  });
}

/**
 * Corrects or removes an offline eligibility recorded by mistake (decision 120), audited
 * (`eligibility.offline_correct` / `eligibility.offline_remove`, with the coverage and day, never the
 * reference); refused while a claim carries it (`inUse`, asked of lib/submissions by the caller).
 */
export async function auditedChangeOfflineEligibility(db: Db, caller: Caller, input: ChangeOfflineEligibilityInput, inUse: (row: OfflineEligibility, db: Db) => Promise<boolean>): Promise<ChangeOfflineResult> {
  return db.transaction(async (tx) => {
    const result = await changeOfflineEligibility(tx as unknown as Db, { id: input.id, patientId: input.patientId }, input.action === "remove" ? { remove: true } : { reference: input.reference, givenOn: input.givenOn }, inUse);
    await audit(tx as unknown as Db, {
      actor: caller.actor,
      action: input.action === "remove" ? "eligibility.offline_remove" : "eligibility.offline_correct",
      target: { type: "patient", id: input.patientId },
      outcome: result.ok ? "success" : "failure",
      requestId: caller.requestId,
      ip: caller.ip,
      details: result.ok ? { offlineId: input.id, coverageId: result.row.coverageId, givenOn: result.row.givenOn } : { offlineId: input.id, reason: result.reason },
    });
    return result;
  });
}
