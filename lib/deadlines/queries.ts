import { eq } from "drizzle-orm";
import { insurers, tables, type Db } from "@/lib/db";
import { claimsWithInformationDue, openClaims, type OpenClaim } from "@/lib/submissions";
import { DEFAULT_WINDOWS, deadlineFrom, deadlineOn, earliestServiceDate, moreUrgent, type Deadline, type FilingWindows } from "./deadline";

const { insurerFilingWindows } = tables;

export async function filingWindows(db: Db): Promise<Map<string, FilingWindows>> {
  const rows = await db.select().from(insurerFilingWindows);
  return new Map(rows.map((r) => [r.insurerId, { submissionDays: r.submissionDays, resubmissionDays: r.resubmissionDays }]));
}

function deadlineOf(row: OpenClaim, windows: Map<string, FilingWindows>, today: string): Deadline | undefined {
  const w = (row.insurerId && windows.get(row.insurerId)) || DEFAULT_WINDOWS;
  if (row.status === "rejected") return deadlineFrom("resubmission", row.changedDay, w.resubmissionDays, today);
  const served = earliestServiceDate(row.claim);
  return served ? deadlineFrom("submission", served, w.submissionDays, today) : undefined;
}

/**
 * Deadlines of these claims: still open ones (drafts, failed, rejected without a replacement) by
 * their filing window, and any claim with a payer's open information request by its due date —
 * the more urgent when both apply.
 */
export async function deadlinesFor(db: Db, ids: readonly string[], today: string, timeZone: string): Promise<Map<string, Deadline>> {
  if (ids.length === 0) return new Map();
  const [rows, windows, asked] = await Promise.all([openClaims(db, timeZone, ids), filingWindows(db), claimsWithInformationDue(db, timeZone, ids)]);
  const out = new Map<string, Deadline>();
  for (const row of rows) {
    const d = deadlineOf(row, windows, today);
    if (d) out.set(row.id, d);
  }
  for (const { submissionId, dueDay } of asked) {
    const d = moreUrgent(out.get(submissionId), deadlineOn("information", dueDay, today));
    if (d) out.set(submissionId, d);
  }
  return out;
}

export interface AtRisk {
  insurerId: string;
  soon: number;
  overdue: number;
}

/** Claims at deadline risk (≤ 7 days left, or missed — filing windows and information requests) per insurer, for the managers' dashboard. */
export async function claimsAtRisk(db: Db, today: string, timeZone: string): Promise<AtRisk[]> {
  const [rows, windows, asked] = await Promise.all([openClaims(db, timeZone), filingWindows(db), claimsWithInformationDue(db, timeZone)]);
  const worst = new Map<string, { insurerId: string; deadline: Deadline }>();
  for (const row of rows) {
    const d = deadlineOf(row, windows, today);
    if (d) worst.set(row.id, { insurerId: row.insurerId ?? "", deadline: d });
  }
  for (const a of asked) {
    const d = moreUrgent(worst.get(a.submissionId)?.deadline, deadlineOn("information", a.dueDay, today))!;
    worst.set(a.submissionId, { insurerId: a.insurerId ?? "", deadline: d });
  }
  const per = new Map<string, AtRisk>();
  for (const { insurerId, deadline } of worst.values()) {
    if (deadline.level === "ok") continue;
    const entry = per.get(insurerId) ?? { insurerId, soon: 0, overdue: 0 };
    entry[deadline.level === "soon" ? "soon" : "overdue"]++;
    per.set(insurerId, entry);
  }
  return [...per.values()].sort((a, b) => b.soon + b.overdue - (a.soon + a.overdue));
}

export interface InsurerSettings {
  id: string;
  nameEn: string;
  nameAr: string;
  license: string | null;
  active: boolean;
  windows: FilingWindows;
  /** False when the defaults apply. */
  configured: boolean;
}

export async function listInsurerSettings(db: Db): Promise<InsurerSettings[]> {
  const rows = await db
    .select({ insurer: insurers, windows: insurerFilingWindows })
    .from(insurers)
    .leftJoin(insurerFilingWindows, eq(insurerFilingWindows.insurerId, insurers.id))
    .orderBy(insurers.nameEn);
  return rows.map(({ insurer, windows }) => ({
    id: insurer.id,
    nameEn: insurer.nameEn,
    nameAr: insurer.nameAr,
    license: insurer.license,
    active: insurer.active,
    windows: windows ? { submissionDays: windows.submissionDays, resubmissionDays: windows.resubmissionDays } : DEFAULT_WINDOWS,
    configured: Boolean(windows),
  }));
}

export interface InsurerInput {
  id: string;
  nameEn: string;
  nameAr: string;
  license: string | null;
  active: boolean;
  submissionDays: number;
  resubmissionDays: number;
}

/** Creates or updates an insurer and its filing windows (administrators). */
export async function saveInsurer(db: Db, input: InsurerInput, by: string): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: insurers.id }).from(insurers).where(eq(insurers.id, input.id)).limit(1);
    if (existing) {
      await tx.update(insurers).set({ nameEn: input.nameEn, nameAr: input.nameAr, license: input.license, active: input.active }).where(eq(insurers.id, input.id));
    } else {
      await tx.insert(insurers).values({ id: input.id, nameEn: input.nameEn, nameAr: input.nameAr, license: input.license, active: input.active });
    }
    await tx
      .insert(insurerFilingWindows)
      .values({ insurerId: input.id, submissionDays: input.submissionDays, resubmissionDays: input.resubmissionDays, updatedBy: by, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: insurerFilingWindows.insurerId,
        set: { submissionDays: input.submissionDays, resubmissionDays: input.resubmissionDays, updatedBy: by, updatedAt: new Date() },
      });
    return { created: !existing };
  });
}
