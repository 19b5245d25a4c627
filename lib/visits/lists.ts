import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, VisitListSource, VisitRowProblem } from "@/lib/db";
import { insurers, patients, queryRows, visitLists, visits } from "@/lib/db";
import { addCoverage } from "@/lib/patients";
import type { GoodVisitRow, Insurer } from "./rows";
import { runProgress, runsOfList } from "./runs";
import { isUuid } from "@/lib/ids";

export interface CreatedList {
  listId: string;
  name: string;
  accepted: number;
  rejected: number;
  registered: number;
  notRegistered: number;
  problems: VisitRowProblem[];
}

export async function activeInsurers(db: Db): Promise<Insurer[]> {
  return db.select({ id: insurers.id, nameEn: insurers.nameEn, nameAr: insurers.nameAr }).from(insurers).where(eq(insurers.active, true));
}

/**
 * Stores a visit list: the good rows become visits (linked to the registered patient by national
 * ID), bad rows are kept in the list's report. With `register`, an unknown patient whose row
 * carries names and a birth date is registered (and given the row's coverage when member id and
 * coverage reference are there).
 */
export async function createVisitList(
  db: Db,
  input: { name: string; source: VisitListSource; createdBy?: string; good: GoodVisitRow[]; problems: VisitRowProblem[]; total: number; register?: boolean; lowThresholdPercent?: number },
): Promise<CreatedList> {
  return db.transaction(async (tx) => {
    const [list] = await tx
      .insert(visitLists)
      .values({
        name: input.name.slice(0, 120),
        source: input.source,
        createdBy: input.createdBy ?? null,
        rowsTotal: input.total,
        problems: input.problems,
        lowThresholdPercent: Math.min(90, Math.max(1, Math.round(input.lowThresholdPercent ?? 20))),
      })
      .returning();
    const ids = [...new Set(input.good.map((g) => g.nationalId))];
    const known = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      for (const row of await tx.select({ id: patients.id, nationalId: patients.nationalId }).from(patients).where(inArray(patients.nationalId, chunk))) known.set(row.nationalId, row.id);
    }
    let registered = 0;
    if (input.register) {
      for (const row of input.good) {
        if (known.has(row.nationalId) || !row.registration) continue;
        const r = row.registration;
        const [p] = await tx
          .insert(patients)
          .values({ nationalId: row.nationalId, documentType: row.nationalId.startsWith("2") ? "iqama" : "nationalId", givenName: r.givenName, familyName: r.familyName, birthDate: r.birthDate, gender: r.gender as "female", createdBy: input.createdBy && isUuid(input.createdBy) ? input.createdBy : null })
          .onConflictDoNothing({ target: patients.nationalId })
          .returning({ id: patients.id });
        if (!p) continue;
        known.set(row.nationalId, p.id);
        registered++;
        if (row.insurerId && r.memberId && r.coverageRef) {
          // Written by lib/patients, the coverages' owner (with the card's expiry, decision 126); a duplicate is left as it is.
          await addCoverage(tx as unknown as Db, { patientId: p.id, insurerId: row.insurerId, memberId: r.memberId, coverageRef: r.coverageRef, expiresOn: r.coverageExpiresOn ?? "" }, input.createdBy && isUuid(input.createdBy) ? input.createdBy : undefined);
        }
      }
    }
    const values = input.good.map((g) => ({
      listId: list!.id,
      line: g.line,
      nationalId: g.nationalId,
      patientId: known.get(g.nationalId) ?? null,
      insurerId: g.insurerId ?? null,
      serviceDate: g.serviceDate,
      services: g.services,
      registration: g.registration ?? null,
    }));
    for (let i = 0; i < values.length; i += 500) await tx.insert(visits).values(values.slice(i, i + 500));
    return {
      listId: list!.id,
      name: list!.name,
      accepted: input.good.length,
      rejected: new Set(input.problems.map((p) => p.line)).size,
      registered,
      notRegistered: values.filter((v) => !v.patientId).length,
      problems: input.problems,
    };
  });
}

/** Links visits of unregistered patients to patients registered since (by national ID). */
export async function relinkPatients(db: Db, listId: string): Promise<number> {
  const rows = await queryRows<{ id: string }>(db, sql`update visits v set patient_id = p.id from patients p where v.list_id = ${listId} and v.patient_id is null and p.national_id = v.national_id returning v.id`);
  return rows.length;
}

export async function getVisitList(db: Db, id: string) {
  const [list] = await db.select().from(visitLists).where(eq(visitLists.id, id));
  return list;
}

export async function recentVisitLists(db: Db, limit = 20) {
  return db
    .select({
      id: visitLists.id,
      name: visitLists.name,
      source: visitLists.source,
      createdAt: visitLists.createdAt,
      rowsTotal: visitLists.rowsTotal,
      problems: visitLists.problems,
      // Qualified by hand: inside the subquery an unqualified "id" would be the visit's.
      visits: sql<number>`(select count(*)::int from visits v where v.list_id = "visit_lists"."id")`,
      checked: sql<number>`(select count(*)::int from visits v where v.list_id = "visit_lists"."id" and v.check_state = 'done')`,
    })
    .from(visitLists)
    .orderBy(desc(visitLists.createdAt))
    .limit(limit);
}

export async function visitsOfList(db: Db, listId: string) {
  return db.select().from(visits).where(eq(visits.listId, listId)).orderBy(asc(visits.line));
}

/** A list's runs (with progress) and each visit's verdict — for the machine APIs. */
export async function visitListStatus(db: Db, listId: string) {
  const list = await getVisitList(db, listId);
  if (!list) return undefined;
  const runs = await runsOfList(db, listId);
  const rows = await visitsOfList(db, listId);
  return {
    listId: list.id,
    name: list.name,
    runs: await Promise.all(runs.map(async (r) => ({ id: r.id, status: r.status, runAt: r.runAt.toISOString(), total: r.total, ...(await runProgress(db, r.id)) }))),
    visits: rows.map((v) => ({
      line: v.line,
      nationalId: v.nationalId,
      serviceDate: v.serviceDate,
      checked: v.checkState === "done",
      verdict: v.checkState === "done" ? v.verdict : null,
      problems: (v.verdictDetail?.problems ?? []).map((p) => ({ verdict: p.verdict, ...(p.category ? { category: p.category } : {}), ...(p.service ? { service: p.service } : {}) })),
      eligibilityCheckId: v.checkId,
    })),
  };
}
