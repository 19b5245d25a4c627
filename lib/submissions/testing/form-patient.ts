import type { Db } from "@/lib/db";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { findPatientByNationalId, listCoverages } from "@/lib/patients/registry";

/**
 * A demo patient as the submission form names them: the registry's patient id and their first
 * coverage's id. Seeds the demo patients first (idempotent); Patient One (1000000001) unless told.
 */
export async function demoFormPatient(db: Db, nationalId = "1000000001"): Promise<{ patientId: string; coverageId: string }> {
  await seedDemoPatients(db);
  const patient = await findPatientByNationalId(db, nationalId);
  if (!patient) throw new Error(`demo patient ${nationalId} is not seeded`);
  const coverage = (await listCoverages(db, patient.id))[0];
  if (!coverage) throw new Error(`demo patient ${nationalId} has no coverage`);
  return { patientId: patient.id, coverageId: coverage.id };
}
