import { desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { patients, submissions } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { clinicalSchema } from "./clinical-schema";

/**
 * What a new prior authorization or claim form may start from for this patient (docs/decisions/103):
 * the marital status of the patient's record and, from the patient's newest earlier submission that
 * recorded them, the height and weight. Only facts that last beyond one visit: the visit's own
 * signs, notes and encounter are asked again. Undefined fields were never recorded.
 */
export interface ClinicalPrefill {
  /** v3-MaritalStatus code of the patient's record. */
  maritalStatus?: string;
  /** From the newest submission that recorded them, with its date (YYYY-MM-DD). */
  height?: { value: string; on: string };
  weight?: { value: string; on: string };
}

/** The prefill of a patient's clinical facts (the patient's internal id); undefined for an unknown patient. */
export async function lastClinicalFacts(db: Db, patientId: string): Promise<ClinicalPrefill | undefined> {
  if (!isUuid(patientId)) return undefined;
  const [patient] = await db.select({ nationalId: patients.nationalId, maritalStatus: patients.maritalStatus }).from(patients).where(eq(patients.id, patientId));
  if (!patient) return undefined;
  // submissions.patient_id holds the national ID / Iqama (the platform's id of the patient).
  const rows = await db.select({ form: submissions.form, updatedAt: submissions.updatedAt }).from(submissions).where(eq(submissions.patientNationalId, patient.nationalId)).orderBy(desc(submissions.updatedAt)).limit(20);
  const out: ClinicalPrefill = { ...(patient.maritalStatus ? { maritalStatus: patient.maritalStatus } : {}) };
  for (const row of rows) {
    const clinical = clinicalSchema.safeParse((row.form as { clinical?: unknown } | null)?.clinical ?? {});
    if (!clinical.success) continue;
    const on = row.updatedAt.toISOString().slice(0, 10);
    const weight = clinical.data.vitalSigns["vital-sign-weight"]?.value;
    const height = clinical.data.vitalSigns["vital-sign-height"]?.value;
    if (!out.weight && weight) out.weight = { value: weight, on };
    if (!out.height && height) out.height = { value: height, on };
    if (out.weight && out.height) break;
  }
  return out;
}
