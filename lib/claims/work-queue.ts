import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { audit, type Caller } from "@/lib/audit";
import { tables, users, type Db } from "@/lib/db";
import { DEFAULT_WINDOWS, deadlineFrom, deadlinesFor, type Deadline } from "@/lib/deadlines";
import { csvDocument } from "@/lib/csv";
import { isUuid } from "@/lib/ids";
import { appealCandidates, claimIdsAmong, isClaimId } from "@/lib/submissions";
import { workQueue } from "./queries";

const { claimWork, claimWorkNotes } = tables;

/**
 * The claims work queue ranked to earn money first (docs/decisions/080). It holds every claim the
 * clinic can still act on: refused (fix and resubmit, by the resubmission deadline), failed (retry,
 * by the filing deadline) and decided with lines denied or cut (appeal, by the insurer's
 * resubmission window counted from the decision) — each with the money at stake and its days left.
 *
 * Rank = money at stake ÷ (days left + 1): the most money per day of time still available first, so
 * 1,000 SAR due tomorrow (500 a day) comes before 3,000 SAR due in a month (97 a day). Claims whose
 * deadline has passed come last (by money); claims without a deadline count a full default window.
 */
export type WorkAction = "fix" | "retry" | "appeal";

export interface WorkItem {
  id: string;
  status: string;
  action: WorkAction;
  insurerId: string | null;
  patientNationalId: string;
  updatedAt: Date;
  atStakeMinor: number;
  currency: string | null;
  /** The line reason with the most money at stake (appeals), else the platform's first error code. */
  reason: string | null;
  family: string | null;
  deadline: Deadline | undefined;
  /** Money per day left (minor units); -1 for a missed deadline. */
  score: number;
  assignee: { id: string; name: string } | null;
  notes: { body: string; authorId: string; createdAt: Date }[];
  errors: { code?: string; status?: number; diagnostics?: string; resolution?: string; field?: string }[] | null;
}

export type AssigneeFilter = "all" | "mine" | "unassigned";

export interface QueueOptions {
  today: string;
  timeZone: string;
  /** The caller (for "mine"). */
  userId?: string;
  assignee?: AssigneeFilter;
  limit?: number;
}

export function scoreOf(atStakeMinor: number, deadline: Deadline | undefined): number {
  const daysLeft = deadline ? deadline.daysLeft : DEFAULT_WINDOWS.resubmissionDays;
  if (daysLeft < 0) return -1;
  return atStakeMinor / (daysLeft + 1);
}

/** Rank order: score descending; missed deadlines after, by money; then the oldest first. */
export function compareWork(a: Pick<WorkItem, "score" | "atStakeMinor" | "updatedAt" | "id">, b: typeof a): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.atStakeMinor !== b.atStakeMinor) return b.atStakeMinor - a.atStakeMinor;
  return a.updatedAt.getTime() - b.updatedAt.getTime() || a.id.localeCompare(b.id);
}

/** The ranked queue (at most `limit` items) with assignees and the latest notes. */
export async function rankedWorkQueue(db: Db, options: QueueOptions): Promise<WorkItem[]> {
  const [refused, appealable] = await Promise.all([workQueue(db, 500), appealCandidates(db, options.timeZone, DEFAULT_WINDOWS.resubmissionDays)]);
  const deadlines = await deadlinesFor(db, refused.map((r) => r.id), options.today, options.timeZone);
  const items: Omit<WorkItem, "assignee" | "notes">[] = [
    ...refused.map((r) => {
      const atStakeMinor = r.totalMinor ?? 0;
      const deadline = deadlines.get(r.id);
      return {
        id: r.id,
        status: r.status,
        action: (r.status === "failed" ? "retry" : "fix") as WorkAction,
        insurerId: r.insurerId,
        patientNationalId: r.patientNationalId,
        updatedAt: r.updatedAt,
        atStakeMinor,
        currency: r.currency,
        reason: r.errors?.[0]?.code ?? null,
        family: null,
        deadline,
        score: scoreOf(atStakeMinor, deadline),
        errors: r.errors,
      };
    }),
    ...appealable.map((r) => {
      const atStakeMinor = Number(r.at_stake);
      const deadline = deadlineFrom("appeal", r.decided_day, r.window_days, options.today);
      return {
        id: r.id,
        status: r.status,
        action: "appeal" as WorkAction,
        insurerId: r.insurer_id,
        patientNationalId: r.patient_id,
        updatedAt: new Date(r.updated_at),
        atStakeMinor,
        currency: r.currency,
        reason: r.reason,
        family: r.family || null,
        deadline,
        score: scoreOf(atStakeMinor, deadline),
        errors: null,
      };
    }),
  ];
  const ids = items.map((i) => i.id);
  const assigned = ids.length
    ? await db.select({ id: claimWork.submissionId, assigneeId: claimWork.assigneeId, name: users.name }).from(claimWork).leftJoin(users, eq(users.id, claimWork.assigneeId)).where(inArray(claimWork.submissionId, ids))
    : [];
  const byId = new Map(assigned.filter((a) => a.assigneeId).map((a) => [a.id, { id: a.assigneeId!, name: a.name ?? "" }]));
  const filter = options.assignee ?? "all";
  const shown = items
    .filter((i) => filter === "all" || (filter === "unassigned" ? !byId.has(i.id) : byId.get(i.id)?.id === options.userId))
    .sort(compareWork)
    .slice(0, options.limit ?? 100);
  const notes = shown.length
    ? await db
        .select({ submissionId: claimWorkNotes.submissionId, body: claimWorkNotes.body, authorId: claimWorkNotes.authorId, createdAt: claimWorkNotes.createdAt })
        .from(claimWorkNotes)
        .where(inArray(claimWorkNotes.submissionId, shown.map((i) => i.id)))
        .orderBy(desc(claimWorkNotes.createdAt), desc(claimWorkNotes.id))
    : [];
  return shown.map((i) => ({
    ...i,
    assignee: byId.get(i.id) ?? null,
    notes: notes.filter((n) => n.submissionId === i.id).slice(0, 3).map(({ body, authorId, createdAt }) => ({ body, authorId, createdAt })),
  }));
}

/** Staff who can work the queue (billing), for the assignee picker. */
export async function queueStaff(db: Db): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(sql`'billing' = any(${users.roles})`, sql`${users.disabledAt} is null`))
    .orderBy(asc(users.name));
}

export type WorkChange = { ok: true; changed: number } | { ok: false; error: "not_found" | "assignee_unknown" };

/** Assigns (or, with null, releases) claims of the queue, in one transaction with its audit entry. */
export async function assignWork(db: Db, caller: Caller, ids: readonly string[], assigneeId: string | null): Promise<WorkChange> {
  const unique = [...new Set(ids)].filter(isUuid);
  if (unique.length === 0) return { ok: false, error: "not_found" };
  const found = await claimIdsAmong(db, unique);
  if (found.length !== unique.length) return { ok: false, error: "not_found" };
  if (assigneeId && !(await queueStaff(db)).some((s) => s.id === assigneeId)) return { ok: false, error: "assignee_unknown" };
  const by = caller.userId ?? "system";
  const at = new Date();
  await db.transaction(async (tx) => {
    for (const id of unique) {
      await tx.insert(claimWork).values({ submissionId: id, assigneeId, updatedBy: by, updatedAt: at }).onConflictDoUpdate({ target: claimWork.submissionId, set: { assigneeId, updatedBy: by, updatedAt: at } });
    }
    await audit(tx, { actor: caller.actor, action: "claim.work_assign", target: { type: "submission", id: unique.length === 1 ? unique[0]! : "many" }, outcome: "success", requestId: caller.requestId, ip: caller.ip, details: { ids: unique, assigneeId } });
  });
  return { ok: true, changed: unique.length };
}

/** Adds a note to a claim of the queue (with its audit entry, which does not repeat the text). */
export async function addWorkNote(db: Db, caller: Caller, id: string, body: string): Promise<WorkChange> {
  if (!isUuid(id)) return { ok: false, error: "not_found" };
  if (!(await isClaimId(db, id))) return { ok: false, error: "not_found" };
  await db.transaction(async (tx) => {
    await tx.insert(claimWorkNotes).values({ submissionId: id, authorId: caller.userName ?? caller.userId ?? "system", body });
    await audit(tx, { actor: caller.actor, action: "claim.work_note", target: { type: "submission", id }, outcome: "success", requestId: caller.requestId, ip: caller.ip, details: { length: body.length } });
  });
  return { ok: true, changed: 1 };
}

/**
 * The queue as CSV data (decision 038): rank, claim, status, action, insurer, money at stake as a
 * plain decimal, currency, deadline (kind, last day, days left), reason, family, assignee. No
 * patient identifier.
 */
export function workQueueCsv(items: readonly WorkItem[], columns: readonly string[]): string {
  const decimal = (minor: number) => `${minor < 0 ? "-" : ""}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, "0")}`;
  return csvDocument([
    columns,
    ...items.map((i, n) => [
      String(n + 1),
      i.id,
      i.status,
      i.action,
      i.insurerId ?? "",
      decimal(i.atStakeMinor),
      i.currency ?? "",
      i.deadline?.kind ?? "",
      i.deadline?.due ?? "",
      i.deadline ? String(i.deadline.daysLeft) : "",
      i.reason ?? "",
      i.family ?? "",
      i.assignee?.name ?? "",
    ]),
  ]);
}

export const WORK_QUEUE_CSV_KEYS = ["rank", "claim", "status", "action", "insurer", "atStake", "currency", "deadlineKind", "due", "daysLeft", "reason", "family", "assignee"] as const;
