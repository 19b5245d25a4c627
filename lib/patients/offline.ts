import { and, desc, eq, gte } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { offlineEligibilities } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { coverageUse } from "./newborn";
import { getPatient } from "./registry";
import type { RecordOfflineEligibilityInput } from "./offline-schema";

/**
 * Offline eligibilities (docs/decisions/111, guide Table 10): when the exchange cannot be reached,
 * the insurer gives the front desk a reference by phone or its portal; recorded here, it goes
 * with the claims for that patient and coverage (extension-eligibility-offline-reference / -date).
 */

export type OfflineEligibility = typeof offlineEligibilities.$inferSelect;

/** How far before a claim's first service day an offline eligibility still counts. */
export const OFFLINE_ELIGIBILITY_DAYS = 30;

export type RecordOfflineResult = { ok: true; row: OfflineEligibility } | { ok: false; reason: "patient_not_found" | "coverage_unknown" };

/** Records one (input parsed by recordOfflineEligibilitySchema): the patient's coverage, or a newborn's mother's. */
export async function recordOfflineEligibility(db: Db, input: RecordOfflineEligibilityInput, recordedBy?: string): Promise<RecordOfflineResult> {
  const patient = await getPatient(db, input.patientId);
  if (!patient) return { ok: false, reason: "patient_not_found" };
  const use = await coverageUse(db, patient, input.coverageId, []);
  if (!use.ok) return { ok: false, reason: "coverage_unknown" };
  const [row] = await db
    .insert(offlineEligibilities)
    .values({ patientId: patient.id, coverageId: use.coverage.id, reference: input.reference, givenOn: input.givenOn, recordedBy: recordedBy ?? null })
    .returning();
  return { ok: true, row: row! };
}

/** A patient's offline eligibilities, newest first. */
export async function listOfflineEligibilities(db: Db, patientId: string): Promise<OfflineEligibility[]> {
  if (!isUuid(patientId)) return [];
  return db.select().from(offlineEligibilities).where(eq(offlineEligibilities.patientId, patientId)).orderBy(desc(offlineEligibilities.givenOn), desc(offlineEligibilities.createdAt)).limit(50);
}

/**
 * The offline eligibility a claim relies on: the newest recorded for the patient and coverage
 * given at most OFFLINE_ELIGIBILITY_DAYS before the first service day (a later one is carried too:
 * the scrubber warns about a date after the service).
 */
export async function offlineEligibilityFor(db: Db, patientId: string, coverageId: string, firstDay: string): Promise<{ reference: string; date: string } | undefined> {
  if (!isUuid(patientId) || !isUuid(coverageId) || !/^\d{4}-\d{2}-\d{2}$/.test(firstDay)) return undefined;
  const from = new Date(Date.parse(`${firstDay}T00:00:00Z`) - OFFLINE_ELIGIBILITY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const [row] = await db
    .select({ reference: offlineEligibilities.reference, givenOn: offlineEligibilities.givenOn })
    .from(offlineEligibilities)
    .where(and(eq(offlineEligibilities.patientId, patientId), eq(offlineEligibilities.coverageId, coverageId), gte(offlineEligibilities.givenOn, from)))
    .orderBy(desc(offlineEligibilities.givenOn), desc(offlineEligibilities.createdAt))
    .limit(1);
  return row ? { reference: row.reference, date: row.givenOn } : undefined;
}

export type ChangeOfflineResult = { ok: true; row: OfflineEligibility } | { ok: false; reason: "not_found" | "in_use" };

/**
 * Corrects (reference and day) or removes an offline eligibility recorded by mistake (decision 120):
 * only while no claim carries it — `inUse` (the caller asks lib/submissions, on the `db` given) says whether one does.
 */
export async function changeOfflineEligibility(
  db: Db,
  target: { id: string; patientId: string },
  change: { remove: true } | { remove?: false; reference: string; givenOn: string },
  inUse: (row: OfflineEligibility, db: Db) => Promise<boolean>,
): Promise<ChangeOfflineResult> {
  if (!isUuid(target.id) || !isUuid(target.patientId)) return { ok: false, reason: "not_found" };
  const [row] = await db.select().from(offlineEligibilities).where(and(eq(offlineEligibilities.id, target.id), eq(offlineEligibilities.patientId, target.patientId))).limit(1);
  if (!row) return { ok: false, reason: "not_found" };
  // Asked in the same transaction (one connection on PGlite; the answer holds until the change is written).
  if (await inUse(row, db)) return { ok: false, reason: "in_use" };
  if (change.remove) {
    await db.delete(offlineEligibilities).where(eq(offlineEligibilities.id, row.id));
    return { ok: true, row };
  }
  const [updated] = await db.update(offlineEligibilities).set({ reference: change.reference, givenOn: change.givenOn }).where(eq(offlineEligibilities.id, row.id)).returning();
  return { ok: true, row: updated! };
}
