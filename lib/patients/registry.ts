import { env } from "@/lib/env";
import { and, asc, eq, ilike, inArray, like, or, type SQL } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db";
import { coverages, insurers, patients } from "@/lib/db";
import { normalizeSaudiMobile, type AddCoverageInput, type RegisterPatientInput, type UpdatePatientInput } from "./schemas";
import { isUuid } from "@/lib/ids";

export type Patient = typeof patients.$inferSelect;
export type Insurer = typeof insurers.$inferSelect;

export interface CoverageView {
  id: string;
  patientId: string;
  insurerId: string;
  insurerNameEn: string;
  insurerNameAr: string;
  memberId: string;
  coverageRef: string;
  /** The payer's network and the coverage class ('' when not known; docs/decisions/089). */
  network: string;
  coverageClass: string;
  /** The card's expiry date (YYYY-MM-DD, last day covered); null: not given (decision 126). */
  expiresOn: string | null;
  createdAt: Date;
  /** A newborn's mother's coverage, offered for the baby's first 30 days (docs/decisions/110). */
  ofMother?: boolean;
}

export interface PatientSummary {
  id: string;
  nationalId: string;
  givenName: string;
  familyName: string;
  birthDate: string;
  gender: Patient["gender"];
  coverages: CoverageView[];
  /** A newborn linked to its mother: its birth weight (grams) when recorded (docs/decisions/110). */
  newborn?: { birthWeightGrams: number | null };
}

/** The document a registry number is of: an Iqama starts with 2, a national ID with 1 (docs/decisions/084). */
export function documentTypeOf(number: string): "nationalId" | "iqama" {
  return number.startsWith("2") ? "iqama" : "nationalId";
}

export type RegisterResult = { ok: true; patient: Patient } | { ok: false; reason: "duplicate"; existingId: string };

/** Registers a patient (input already parsed by registerPatientSchema). One row per national ID. */
export async function registerPatient(db: Db, input: RegisterPatientInput, createdBy?: string): Promise<RegisterResult> {
  const phone = input.phone ? normalizeSaudiMobile(input.phone) : undefined;
  const [row] = await db
    .insert(patients)
    .values({
      nationalId: input.nationalId,
      // The registry's numbers are national IDs (1…) and Iqamas (2…): the check digit rule holds for both (decision 084).
      documentType: documentTypeOf(input.nationalId),
      givenName: input.givenName,
      familyName: input.familyName,
      birthDate: input.birthDate,
      gender: input.gender,
      phone: phone ?? null,
      maritalStatus: input.maritalStatus || null,
      occupation: input.occupation || null,
      religion: input.religion || null,
      createdBy: createdBy ?? null,
    })
    .onConflictDoNothing({ target: patients.nationalId })
    .returning();
  if (row) return { ok: true, patient: row };
  const existing = await findPatientByNationalId(db, input.nationalId);
  if (!existing) throw new Error("patient insert conflicted but no row was found");
  return { ok: false, reason: "duplicate", existingId: existing.id };
}

export type UpdateResult =
  | { ok: true; patient: Patient; changed: string[] }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "duplicate"; existingId: string }
  /** The number already names claims, authorizations or visits sent or planned under it: it cannot change. */
  | { ok: false; reason: "national_id_in_use" };

const EDITABLE = ["nationalId", "givenName", "familyName", "birthDate", "gender", "phone", "maritalStatus", "occupation", "religion"] as const;

/**
 * Whether anything was sent under a national ID, read in the correction's transaction. The
 * submissions belong to a higher layer (docs/decisions/127): the caller asks their owner
 * (`hasSubmissionsFor` of lib/submissions) and passes the question down.
 */
export type SentUnder = (tx: Tx, nationalId: string) => Promise<boolean>;

/**
 * Whether any visit is planned under a national ID, read in the correction's transaction. The
 * visit lists belong to a higher layer (docs/decisions/128): the caller asks their owner
 * (`hasVisitsFor` of lib/visits) and passes the question down, as with `SentUnder`.
 */
export type PlannedUnder = (tx: Tx, nationalId: string) => Promise<boolean>;

/**
 * Corrects a registered patient (input already parsed by updatePatientSchema). The national ID
 * can be corrected only while nothing was sent or planned under it (submissions and visits carry
 * the number itself); after that the right number is a new registration. Answers which fields
 * changed (names only, for the audit).
 */
export async function updatePatient(db: Db, input: UpdatePatientInput, sentUnder: SentUnder, plannedUnder: PlannedUnder): Promise<UpdateResult> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(patients).where(eq(patients.id, input.id)).for("update");
    if (!current) return { ok: false, reason: "not_found" };
    const next = {
      nationalId: input.nationalId,
      givenName: input.givenName,
      familyName: input.familyName,
      birthDate: input.birthDate,
      gender: input.gender,
      phone: (input.phone ? normalizeSaudiMobile(input.phone) : undefined) ?? null,
      maritalStatus: input.maritalStatus || null,
      occupation: input.occupation || null,
      religion: input.religion || null,
    };
    const changed = EDITABLE.filter((k) => (current[k] ?? null) !== next[k]);
    if (changed.length === 0) return { ok: true, patient: current, changed };
    if (changed.includes("nationalId")) {
      const [other] = await tx.select({ id: patients.id }).from(patients).where(eq(patients.nationalId, next.nationalId)).limit(1);
      if (other) return { ok: false, reason: "duplicate", existingId: other.id };
      const sent = await sentUnder(tx, current.nationalId);
      const planned = await plannedUnder(tx, current.nationalId);
      if (sent || planned) return { ok: false, reason: "national_id_in_use" };
    }
    const [row] = await tx.update(patients).set({ ...next, ...(changed.includes("nationalId") ? { documentType: documentTypeOf(next.nationalId) } : {}) }).where(eq(patients.id, current.id)).returning();
    return { ok: true, patient: row!, changed: [...changed] };
  });
}

export async function getPatient(db: Db, id: string): Promise<Patient | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(patients).where(eq(patients.id, id));
  return row;
}

export async function findPatientByNationalId(db: Db, nationalId: string): Promise<Patient | undefined> {
  const [row] = await db.select().from(patients).where(eq(patients.nationalId, nationalId));
  return row;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/** How a query is read: digits → national ID (prefix), anything else → name words. */
export function searchKind(query: string): "national_id" | "name" | "empty" {
  const q = query.trim();
  if (!q) return "empty";
  return /^\d+$/.test(q) ? "national_id" : "name";
}

/**
 * Finds patients by national ID (whole number or its beginning) or by name (every word must
 * appear in the given or family name, any case). At most `limit` rows, with their coverages.
 */
export async function searchPatients(db: Db, query: string, limit = 20): Promise<PatientSummary[]> {
  const q = query.trim().slice(0, 100);
  const kind = searchKind(q);
  if (kind === "empty") return [];
  let where: SQL | undefined;
  if (kind === "national_id") {
    where = like(patients.nationalId, `${escapeLike(q)}%`);
  } else {
    const words = q.split(/\s+/).filter(Boolean).slice(0, 5);
    where = and(
      ...words.map((w) => or(ilike(patients.givenName, `%${escapeLike(w)}%`), ilike(patients.familyName, `%${escapeLike(w)}%`))!),
    );
  }
  const rows = await db
    .select()
    .from(patients)
    .where(where)
    .orderBy(asc(patients.familyName), asc(patients.givenName), asc(patients.nationalId))
    .limit(Math.min(Math.max(limit, 1), 50));
  const byPatient = await coveragesFor(db, [...new Set(rows.flatMap((r) => (r.motherId ? [r.id, r.motherId] : [r.id])))]);
  return rows.map((r) => ({
    id: r.id,
    nationalId: r.nationalId,
    givenName: r.givenName,
    familyName: r.familyName,
    birthDate: r.birthDate,
    gender: r.gender,
    // A newborn is offered its mother's coverages after its own (guide 6.5, docs/decisions/110).
    coverages: [...(byPatient.get(r.id) ?? []), ...(r.motherId ? (byPatient.get(r.motherId) ?? []).map((c) => ({ ...c, ofMother: true })) : [])],
    ...(r.motherId ? { newborn: { birthWeightGrams: r.birthWeightGrams } } : {}),
  }));
}

async function coveragesFor(db: Db, patientIds: string[]): Promise<Map<string, CoverageView[]>> {
  const map = new Map<string, CoverageView[]>();
  if (patientIds.length === 0) return map;
  const rows = await db
    .select({
      id: coverages.id,
      patientId: coverages.patientId,
      insurerId: coverages.insurerId,
      insurerNameEn: insurers.nameEn,
      insurerNameAr: insurers.nameAr,
      memberId: coverages.memberId,
      coverageRef: coverages.coverageRef,
      network: coverages.network,
      coverageClass: coverages.coverageClass,
      expiresOn: coverages.expiresOn,
      createdAt: coverages.createdAt,
    })
    .from(coverages)
    .innerJoin(insurers, eq(insurers.id, coverages.insurerId))
    .where(inArray(coverages.patientId, patientIds))
    .orderBy(asc(coverages.createdAt));
  for (const row of rows) map.set(row.patientId, [...(map.get(row.patientId) ?? []), row]);
  return map;
}

export async function listCoverages(db: Db, patientId: string): Promise<CoverageView[]> {
  return (await coveragesFor(db, [patientId])).get(patientId) ?? [];
}

/** A coverage by the exchange's reference (`Coverage/<coverageRef>` on a Claim): its payer and its terms' keys, or undefined. */
export async function coverageTermsByRef(db: Db, coverageRef: string): Promise<{ insurerId: string; network: string; coverageClass: string } | undefined> {
  const [row] = await db
    .select({ insurerId: coverages.insurerId, network: coverages.network, coverageClass: coverages.coverageClass })
    .from(coverages)
    .where(eq(coverages.coverageRef, coverageRef))
    .limit(1);
  return row ? { insurerId: row.insurerId, network: row.network ?? "", coverageClass: row.coverageClass ?? "" } : undefined;
}

export async function getCoverage(db: Db, coverageId: string): Promise<CoverageView | undefined> {
  if (!isUuid(coverageId)) return undefined;
  const [row] = await db
    .select({
      id: coverages.id,
      patientId: coverages.patientId,
      insurerId: coverages.insurerId,
      insurerNameEn: insurers.nameEn,
      insurerNameAr: insurers.nameAr,
      memberId: coverages.memberId,
      coverageRef: coverages.coverageRef,
      network: coverages.network,
      coverageClass: coverages.coverageClass,
      expiresOn: coverages.expiresOn,
      createdAt: coverages.createdAt,
    })
    .from(coverages)
    .innerJoin(insurers, eq(insurers.id, coverages.insurerId))
    .where(eq(coverages.id, coverageId));
  return row;
}

export async function listInsurers(db: Db): Promise<Insurer[]> {
  return db.select().from(insurers).where(eq(insurers.active, true)).orderBy(asc(insurers.nameEn));
}

export type AddCoverageResult =
  | { ok: true; coverage: CoverageView }
  | { ok: false; reason: "unknown_patient" | "unknown_insurer" | "duplicate" | "coverage_ref_required" };

/**
 * The coverage id the requests name. Given → kept. Blank → over the exchange's messaging, where a
 * request carries the Coverage with its member number and the exchange identifies it by that
 * (guide 6.2, Coverage.identifier), the portal makes one from the member number; over the spec's
 * REST the platform knows a coverage only by its own id, so none can be made (undefined).
 */
export function coverageRefFor(input: { memberId: string; coverageRef?: string }, protocol: "rest" | "messaging" = env().PLATFORM_PROTOCOL): string | undefined {
  const given = input.coverageRef?.trim();
  if (given) return given;
  if (protocol !== "messaging") return undefined;
  return `mbr-${input.memberId.replace(/[^A-Za-z0-9\-.]/g, "-")}`.slice(0, 64);
}

/** Adds a coverage to a patient (input parsed by addCoverageSchema). */
export async function addCoverage(
  db: Db,
  input: Omit<AddCoverageInput, "network" | "coverageClass" | "expiresOn"> & Partial<Pick<AddCoverageInput, "network" | "coverageClass" | "expiresOn">>,
  createdBy?: string,
): Promise<AddCoverageResult> {
  if (!(await getPatient(db, input.patientId))) return { ok: false, reason: "unknown_patient" };
  const [insurer] = await db.select().from(insurers).where(and(eq(insurers.id, input.insurerId), eq(insurers.active, true)));
  if (!insurer) return { ok: false, reason: "unknown_insurer" };
  const coverageRef = coverageRefFor(input);
  if (!coverageRef) return { ok: false, reason: "coverage_ref_required" };
  const [row] = await db
    .insert(coverages)
    .values({ patientId: input.patientId, insurerId: input.insurerId, memberId: input.memberId, coverageRef, network: input.network ?? "", coverageClass: input.coverageClass ?? "", expiresOn: input.expiresOn || null, createdBy: createdBy ?? null })
    .onConflictDoNothing()
    .returning();
  if (!row) return { ok: false, reason: "duplicate" };
  return {
    ok: true,
    coverage: { ...row, insurerNameEn: insurer.nameEn, insurerNameAr: insurer.nameAr },
  };
}
