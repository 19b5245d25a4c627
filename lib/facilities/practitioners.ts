import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import { appMeta, practitioners, type Db } from "@/lib/db";

/**
 * The clinic's practitioners (docs/decisions/084): per facility, with their licence on the
 * national exchange and their specialty (practice-codes), picked on the forms as the care team.
 */
export interface Practitioner {
  id: string;
  /** null: the main facility. */
  facilityId: string | null;
  license: string;
  givenName: string;
  familyName: string;
  specialty: string;
  active: boolean;
}

const toPractitioner = (row: typeof practitioners.$inferSelect): Practitioner => ({
  id: row.id,
  facilityId: row.facilityId,
  license: row.license,
  givenName: row.givenName,
  familyName: row.familyName,
  specialty: row.specialty,
  active: row.active,
});

/** The active practitioners a facility's staff pick from: the facility's own and the main facility's. */
export async function listPractitioners(db: Db, facilityId: string | null): Promise<Practitioner[]> {
  const where = facilityId ? or(eq(practitioners.facilityId, facilityId), isNull(practitioners.facilityId)) : isNull(practitioners.facilityId);
  const rows = await db.select().from(practitioners).where(and(eq(practitioners.active, true), where)).orderBy(asc(practitioners.familyName), asc(practitioners.givenName));
  return rows.map(toPractitioner);
}

/** Practitioners by id (unknown ids are left out). */
export async function practitionersByIds(db: Db, ids: readonly string[]): Promise<Practitioner[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(practitioners).where(inArray(practitioners.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.id, toPractitioner(r)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export interface PractitionerInput {
  facilityId?: string | null;
  license: string;
  givenName: string;
  familyName: string;
  specialty: string;
}

export async function addPractitioner(db: Db, input: PractitionerInput): Promise<Practitioner> {
  const [row] = await db.insert(practitioners).values({ ...input, facilityId: input.facilityId ?? null }).returning();
  return toPractitioner(row!);
}

/**
 * Demo practitioners of the main facility: the licences the embedded sandbox knows (its training
 * seed), with practice-codes specialties of our demo list. Fictional people.
 */
export const DEMO_PRACTITIONERS: readonly PractitionerInput[] = [
  { license: "PRAC-10001", givenName: "Layla", familyName: "Example", specialty: "08.00" },
  { license: "PRAC-10002", givenName: "Khalid", familyName: "Sample", specialty: "22.00" },
  { license: "PRAC-10003", givenName: "Mona", familyName: "Placeholder", specialty: "19.00" },
  { license: "PRAC-10004", givenName: "Yousef", familyName: "Demo", specialty: "24.00" },
];

const MARKER = "demo_practitioners_seeded";

/** Seeds the demo practitioners once (embedded sandbox only, like the demo patients). Returns whether it seeded. */
export async function seedDemoPractitioners(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(appMeta).values({ key: MARKER, value: { at: new Date().toISOString() } }).onConflictDoNothing().returning();
    if (inserted.length === 0) return false;
    await tx.insert(practitioners).values(DEMO_PRACTITIONERS.map((p) => ({ ...p, facilityId: null }))).onConflictDoNothing();
    return true;
  });
}
