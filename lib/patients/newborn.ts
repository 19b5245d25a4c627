import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { coverages, patients } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { kilogramsOf, type RegisterNewbornInput } from "./newborn-schema";
import { daysOld, underMotherCoverage } from "./dates";
import { documentTypeOf, findPatientByNationalId, getCoverage, listCoverages, type CoverageView, type Patient } from "./registry";

/**
 * Newborns (docs/decisions/110, guide 6.5): a baby registered from the mother's page, linked to her
 * record, checked and billed under her coverage with the exchange's newborn flag for its first 30
 * days. The baby's birth weight is recorded in kilograms and kept in grams.
 */

export type RegisterNewbornResult =
  | { ok: true; patient: Patient }
  | { ok: false; reason: "duplicate"; existingId: string }
  | { ok: false; reason: "mother_not_found" }
  | { ok: false; reason: "born_before_mother" };

/** Registers a newborn linked to the mother (input parsed by registerNewbornSchema). */
export async function registerNewborn(db: Db, input: RegisterNewbornInput, createdBy?: string): Promise<RegisterNewbornResult> {
  const [mother] = await db.select().from(patients).where(eq(patients.id, input.motherId)).limit(1);
  if (!mother) return { ok: false, reason: "mother_not_found" };
  if (input.birthDate <= mother.birthDate) return { ok: false, reason: "born_before_mother" };
  const [row] = await db
    .insert(patients)
    .values({
      nationalId: input.nationalId,
      documentType: documentTypeOf(input.nationalId),
      givenName: input.givenName,
      familyName: input.familyName,
      birthDate: input.birthDate,
      gender: input.gender,
      // The Minimum Data Set sends Patient.maritalStatus: a newborn has never married (v3 S).
      maritalStatus: "S",
      motherId: mother.id,
      birthTime: input.birthTime,
      birthWeightGrams: Math.round(kilogramsOf(input.birthWeightKg)! * 1000),
      createdBy: createdBy ?? null,
    })
    .onConflictDoNothing({ target: patients.nationalId })
    .returning();
  if (row) return { ok: true, patient: row };
  const existing = await findPatientByNationalId(db, input.nationalId);
  if (!existing) throw new Error("patient insert conflicted but no row was found");
  return { ok: false, reason: "duplicate", existingId: existing.id };
}

/** A mother's babies, oldest first. */
export async function listNewborns(db: Db, motherId: string): Promise<Patient[]> {
  if (!isUuid(motherId)) return [];
  return db.select().from(patients).where(eq(patients.motherId, motherId)).orderBy(asc(patients.birthDate), asc(patients.createdAt));
}

/** A baby's mother, when the baby's record names one. */
export async function motherOf(db: Db, baby: Pick<Patient, "motherId">): Promise<Patient | undefined> {
  if (!baby.motherId) return undefined;
  const [row] = await db.select().from(patients).where(and(eq(patients.id, baby.motherId))).limit(1);
  return row;
}

/** The birth weight in kilograms (3 decimals at most) of a baby whose weight was recorded. */
export const birthWeightKg = (baby: Pick<Patient, "birthWeightGrams">): number | undefined => (baby.birthWeightGrams === null ? undefined : baby.birthWeightGrams / 1000);

export type CoverageUse =
  | { ok: true; coverage: CoverageView; newborn?: { birthWeightKg?: number; mother: Patient } }
  | { ok: false; reason: "unknown" | "newborn_too_old" | "newborn_outside" };

/**
 * The coverage a request for a patient names: the patient's own, or — for a baby linked to its
 * mother — the mother's, on every service day within the newborn days (guide 6.5, BV-90023).
 * `days` are the request's service days (YYYY-MM-DD).
 */
export async function coverageUse(db: Db, patient: Patient, coverageId: string, days: readonly string[]): Promise<CoverageUse> {
  const coverage = await getCoverage(db, coverageId);
  if (!coverage) return { ok: false, reason: "unknown" };
  if (coverage.patientId === patient.id) return { ok: true, coverage };
  if (!patient.motherId || coverage.patientId !== patient.motherId) return { ok: false, reason: "unknown" };
  const mother = await motherOf(db, patient);
  if (!mother) return { ok: false, reason: "unknown" };
  if (days.some((d) => daysOld(patient.birthDate, d) < 0)) return { ok: false, reason: "newborn_outside" };
  if (days.some((d) => !underMotherCoverage(patient.birthDate, d))) return { ok: false, reason: "newborn_too_old" };
  const kg = birthWeightKg(patient);
  return { ok: true, coverage, newborn: { ...(kg !== undefined ? { birthWeightKg: kg } : {}), mother } };
}

/** The coverages a baby may be billed under: the mother's (each marked), after its own. */
export async function mothersCoverages(db: Db, baby: Pick<Patient, "motherId">): Promise<CoverageView[]> {
  if (!baby.motherId) return [];
  return (await listCoverages(db, baby.motherId)).map((c) => ({ ...c, ofMother: true }));
}

export type RequestCoverageUse =
  /** newborn: a baby on its mother's coverage, with its birth date (the birth encounter's day, guide 6.5). */
  | { ok: true; newborn: boolean; birthDate?: string }
  | { ok: false; reason: "newborn_flag_missing" | "newborn_too_old" | "newborn_outside"; age?: number };

/**
 * For the machine APIs (docs/decisions/110): a request naming a coverage by its platform id for a
 * patient by document number. When the portal knows both and the coverage is the mother's of a
 * baby linked to her, the request must carry the newborn flag and every service day must be within
 * the newborn days; anything else is left as it was (the exchange answers).
 */
export async function requestCoverageUse(db: Db, nationalId: string, coverageRef: string | undefined, days: readonly string[], flagged: boolean): Promise<RequestCoverageUse> {
  if (!coverageRef) return { ok: true, newborn: false };
  const [patient] = await db.select().from(patients).where(eq(patients.nationalId, nationalId)).limit(1);
  const [coverage] = await db.select({ patientId: coverages.patientId }).from(coverages).where(eq(coverages.coverageRef, coverageRef)).limit(1);
  if (!patient || !coverage || coverage.patientId === patient.id || patient.motherId !== coverage.patientId) return { ok: true, newborn: false };
  if (!flagged) return { ok: false, reason: "newborn_flag_missing" };
  const before = days.find((d) => daysOld(patient.birthDate, d) < 0);
  if (before) return { ok: false, reason: "newborn_outside", age: daysOld(patient.birthDate, before) };
  const late = days.find((d) => !underMotherCoverage(patient.birthDate, d));
  if (late) return { ok: false, reason: "newborn_too_old", age: daysOld(patient.birthDate, late) };
  return { ok: true, newborn: true, birthDate: patient.birthDate };
}
