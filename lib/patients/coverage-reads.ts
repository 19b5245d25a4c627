import { and, asc, desc, eq, or } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db";
import { coverages, insurers, patients } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import type { Insurer, Patient } from "./registry";

/*
 * The reads other modules make of the patients' coverages (docs/decisions/128: lib/patients alone
 * writes `coverages`, so it alone reads them). Each is the query its caller made before, returning
 * plain rows: the forms' prices and shares, the eligibility checks, the reference resolver, the
 * message parties, the payer licence, the machine APIs and the scrubber.
 */

/** A coverage as stored (every column). */
export type CoverageRow = typeof coverages.$inferSelect;

/** A coverage's payer and the keys of its terms (network, class; '' when not known). */
export interface CoverageTerms {
  insurerId: string;
  network: string;
  coverageClass: string;
}

/** One coverage of a patient by its id: its payer and terms, or undefined when the coverage is not this patient's. */
export async function coverageTermsOf(db: Db | Tx, patientId: string, coverageId: string): Promise<CoverageTerms | undefined> {
  const [row] = await db
    .select({ insurerId: coverages.insurerId, network: coverages.network, coverageClass: coverages.coverageClass })
    .from(coverages)
    .where(and(eq(coverages.id, coverageId), eq(coverages.patientId, patientId)))
    .limit(1);
  return row;
}

/** As `coverageTermsOf`, with the holder's national ID (the claim form's live shares price by it). */
export async function coverageHolderTermsOf(db: Db | Tx, patientId: string, coverageId: string): Promise<(CoverageTerms & { nationalId: string }) | undefined> {
  const [row] = await db
    .select({ nationalId: patients.nationalId, insurerId: coverages.insurerId, network: coverages.network, coverageClass: coverages.coverageClass })
    .from(coverages)
    .innerJoin(patients, eq(patients.id, coverages.patientId))
    .where(and(eq(coverages.id, coverageId), eq(coverages.patientId, patientId)))
    .limit(1);
  return row;
}

/** The patient and coverage ids of a coverage named by the exchange's reference, when it is the coverage of the patient with this national ID. */
export async function coverageOfHolderByRef(db: Db, nationalId: string, coverageRef: string): Promise<{ patientId: string; coverageId: string } | undefined> {
  const [row] = await db
    .select({ patientId: patients.id, coverageId: coverages.id })
    .from(coverages)
    .innerJoin(patients, eq(patients.id, coverages.patientId))
    .where(and(eq(coverages.coverageRef, coverageRef), eq(patients.nationalId, nationalId)))
    .limit(1);
  return row;
}

/**
 * The ids of the coverages a reference names, two at most (enough to tell a unique match): by the
 * exchange's reference alone, or (an identifier) by member id or reference.
 */
export async function coverageIdsNamed(db: Db, value: string, by: "coverageRef" | "memberIdOrRef"): Promise<string[]> {
  const rows = await db
    .select({ id: coverages.id })
    .from(coverages)
    .where(by === "coverageRef" ? eq(coverages.coverageRef, value) : or(eq(coverages.memberId, value), eq(coverages.coverageRef, value)))
    .limit(2);
  return rows.map((r) => r.id);
}

/** The id of a coverage by the exchange's reference (the first found), or undefined. */
export async function coverageIdByRef(db: Db, coverageRef: string): Promise<string | undefined> {
  const [row] = await db.select({ id: coverages.id }).from(coverages).where(eq(coverages.coverageRef, coverageRef)).limit(1);
  return row?.id;
}

/** The id of a patient's first-recorded coverage with a payer, or undefined. */
export async function firstCoverageIdWith(db: Db, patientId: string, insurerId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: coverages.id })
    .from(coverages)
    .where(and(eq(coverages.patientId, patientId), eq(coverages.insurerId, insurerId)))
    .orderBy(asc(coverages.createdAt))
    .limit(1);
  return row?.id;
}

/** Every coverage of a patient with a payer: its reference and terms' keys (the scrubber picks the claim's). */
export async function coverageTermsWith(db: Db | Tx, patientId: string, insurerId: string): Promise<{ coverageRef: string; network: string; coverageClass: string }[]> {
  return db
    .select({ coverageRef: coverages.coverageRef, network: coverages.network, coverageClass: coverages.coverageClass })
    .from(coverages)
    .where(and(eq(coverages.patientId, patientId), eq(coverages.insurerId, insurerId)));
}

/** A coverage with its patient and payer, whole rows (the message parties are built from them). */
export interface CoverageRecord {
  patient: Patient;
  coverage: CoverageRow;
  insurer: Insurer;
}

/**
 * The coverage a message names, with its patient and payer: by the exchange's reference, else
 * (with a payer) the newest coverage of the patient with this national ID at that payer.
 */
export async function coverageRecordFor(db: Db, query: { coverageRef: string } | { nationalId: string; insurerId: string }): Promise<CoverageRecord | undefined> {
  const select = db.select({ patient: patients, coverage: coverages, insurer: insurers }).from(coverages).innerJoin(patients, eq(coverages.patientId, patients.id)).innerJoin(insurers, eq(coverages.insurerId, insurers.id));
  if ("coverageRef" in query) return (await select.where(eq(coverages.coverageRef, query.coverageRef)).limit(1))[0];
  return (await select.where(and(eq(patients.nationalId, query.nationalId), eq(coverages.insurerId, query.insurerId))).orderBy(desc(coverages.createdAt)).limit(1))[0];
}

/** The payer's licence of a coverage named by the exchange's reference: a row (its licence may be null), or undefined when no such coverage. */
export async function coverageLicenseByRef(db: Db, coverageRef: string): Promise<{ license: string | null } | undefined> {
  const [row] = await db
    .select({ license: insurers.license })
    .from(coverages)
    .innerJoin(insurers, eq(coverages.insurerId, insurers.id))
    .where(eq(coverages.coverageRef, coverageRef))
    .limit(1);
  return row;
}

/** A coverage as the machine API's Coverage read shows it. */
export interface CoverageCard {
  coverageId: string;
  coverageRef: string;
  memberId: string;
  insurerId: string;
  /** The payer's English name; null when the payer is not on file. */
  insurerName: string | null;
  patientId: string;
  nationalId: string;
}

/** A coverage by the portal's id (a UUID) or else the exchange's reference, with its holder and payer's name; undefined when none. */
export async function coverageCard(db: Db, id: string): Promise<CoverageCard | undefined> {
  const [row] = await db
    .select({
      coverageId: coverages.id,
      coverageRef: coverages.coverageRef,
      memberId: coverages.memberId,
      insurerId: coverages.insurerId,
      insurerName: insurers.nameEn,
      patientId: patients.id,
      nationalId: patients.nationalId,
    })
    .from(coverages)
    .innerJoin(patients, eq(patients.id, coverages.patientId))
    .leftJoin(insurers, eq(insurers.id, coverages.insurerId))
    .where(isUuid(id) ? eq(coverages.id, id) : eq(coverages.coverageRef, id))
    .limit(1);
  return row;
}

/** The columns of a coverage the eligibility result screen shows, by id; undefined when none. */
export async function coverageSummary(db: Db, coverageId: string): Promise<{ id: string; memberId: string; coverageRef: string; network: string; coverageClass: string } | undefined> {
  const [row] = await db
    .select({ id: coverages.id, memberId: coverages.memberId, coverageRef: coverages.coverageRef, network: coverages.network, coverageClass: coverages.coverageClass })
    .from(coverages)
    .where(eq(coverages.id, coverageId));
  return row;
}
