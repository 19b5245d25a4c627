import { and, asc, desc, eq, gte, ilike, inArray, lt, notInArray, or, sql, type SQL } from "drizzle-orm";
import { patients, queryRows, submissions, type Db, type SubmissionStatus } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { addDays, isCalendarDate, startOfZonedDay } from "@/lib/time";
import { parseShortNumber } from "../labels";
import type { Submission } from "../states";

/*
 * The claims pages' reads of the submissions (lib/claims): the list with its filters, sorting and
 * keyset pages, its counts, the work queue's candidates, a claim's links, the reconciliation's
 * matches. Each returns plain rows; lib/claims shapes them for its pages.
 */

export const CLAIM_SORTS = ["created", "total", "status"] as const;
export type ClaimSort = (typeof CLAIM_SORTS)[number];

export interface ClaimFilters {
  status?: SubmissionStatus;
  /** National ID (exact) or part of the registered patient's name. */
  patient?: string;
  /**
   * The list's search box: a claim's short number ("C-1024"), our identifier, the platform's id or
   * the payer's reference (exact), or the patient as in `patient` (docs/decisions/122).
   */
  q?: string;
  insurer?: string;
  /** Days (YYYY-MM-DD) in the clinic's time zone, both inclusive. */
  from?: string;
  to?: string;
  /** A "submit selected" batch (its claims carry `form.batch`, lib/claims/batch.ts). */
  batch?: string;
  /** Claims with a line denied or cut for this adjudication reason (denial_lines, docs/decisions/077). */
  reason?: string;
}

/** The sort key as one comparable SQL expression (nulls folded so keyset comparisons hold). */
function sortExpr(sort: ClaimSort): SQL {
  if (sort === "total") return sql`coalesce(${submissions.totalMinor}, -1)`;
  if (sort === "status") return sql`${submissions.status}`;
  return sql`${submissions.createdAt}`;
}

/** A real calendar day (2026-02-30 is ignored like any other bad filter, not rolled over). */
const DAY = { test: (v: string) => isCalendarDate(v) };

/** Where-conditions of the filters (the status one optional: counts ignore it). */
function filterWhere(f: ClaimFilters, timeZone: string, withStatus: boolean): SQL[] {
  const where: SQL[] = [eq(submissions.kind, "claim")];
  if (withStatus && f.status) where.push(eq(submissions.status, f.status));
  if (f.insurer) where.push(eq(submissions.insurerId, f.insurer));
  if (f.batch && isUuid(f.batch)) where.push(sql`${submissions.form}->>'batch' = ${f.batch}`);
  if (f.reason) where.push(sql`exists (select 1 from denial_lines d where d.submission_id = ${submissions.id} and d.reason_code = ${f.reason})`);
  const p = f.patient?.trim();
  if (p) where.push(patientMatch(p));
  const q = f.q?.trim();
  if (q) {
    const n = parseShortNumber(q);
    where.push(
      or(
        ...(n && (!n.kind || n.kind === "claim") ? [eq(submissions.number, n.number)] : []),
        eq(submissions.identifierValue, q),
        eq(submissions.platformId, q),
        sql`${submissions.response}->>'preAuthRef' = ${q}`,
        sql`${submissions.response}->'identifier'->0->>'value' = ${q}`,
        patientMatch(q),
      )!,
    );
  }
  if (f.from && DAY.test(f.from)) {
    const start = startOfZonedDay(f.from, timeZone);
    if (start) where.push(gte(submissions.createdAt, start));
  }
  if (f.to && DAY.test(f.to)) {
    const end = startOfZonedDay(addDays(f.to, 1), timeZone);
    if (end) where.push(lt(submissions.createdAt, end));
  }
  return where;
}

/** The national ID (exact) or part of the registered patient's given or family name, or both names typed together. */
function patientMatch(p: string): SQL {
  const like = `%${p.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
  return or(
    eq(submissions.patientNationalId, p),
    inArray(
      submissions.patientNationalId,
      sql`(select ${patients.nationalId} from ${patients} where ${ilike(patients.givenName, like)} or ${ilike(patients.familyName, like)} or (${patients.givenName} || ' ' || ${patients.familyName}) ilike ${like})`,
    ),
  )!;
}

export interface ClaimPageQuery {
  filters: ClaimFilters;
  timeZone: string;
  sort: ClaimSort;
  dir: "asc" | "desc";
  /** The keyset: the last row's sort value (a Date for "created", a number for "total", the status) and id. */
  after?: { value: Date | number | string; id: string };
  /** How many rows to read (the page and one more, to know there is a next page). */
  take: number;
}

/** The claims of one page of the list, in its order, after the keyset. */
export async function claimPageRows(db: Db, q: ClaimPageQuery): Promise<Submission[]> {
  const key = sortExpr(q.sort);
  const where = filterWhere(q.filters, q.timeZone, true);
  if (q.after) {
    const a = q.after.value;
    const v = a instanceof Date ? sql`${a.toISOString()}::timestamptz` : typeof a === "number" ? sql`${a}::integer` : sql`${a}`;
    const cmp = q.dir === "desc" ? sql`(${key}, ${submissions.id}) < (${v}, ${q.after.id}::uuid)` : sql`(${key}, ${submissions.id}) > (${v}, ${q.after.id}::uuid)`;
    where.push(cmp);
  }
  const order = q.dir === "desc" ? [desc(key), desc(submissions.id)] : [asc(key), asc(submissions.id)];
  return db
    .select()
    .from(submissions)
    .where(and(...where))
    .orderBy(...order)
    .limit(q.take);
}

/** How many claims per status under the filters (status filter ignored: the chips choose it). */
export async function claimStatusCounts(db: Db, f: ClaimFilters, timeZone: string): Promise<Partial<Record<SubmissionStatus, number>>> {
  const rows = await db
    .select({ status: submissions.status, n: sql<number>`count(*)::int` })
    .from(submissions)
    .where(and(...filterWhere(f, timeZone, false)))
    .groupBy(submissions.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** The insurers that occur in claims (for the filter), in order. */
export async function claimInsurerIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ insurerId: submissions.insurerId })
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), sql`${submissions.insurerId} is not null`))
    .orderBy(asc(submissions.insurerId));
  return rows.map((r) => r.insurerId!).filter(Boolean);
}

/** Rejected and failed claims, oldest problem first, not yet replaced by a newer claim. */
export async function claimsToFix(db: Db, limit = 100): Promise<Submission[]> {
  const replaced = sql`(select ${submissions.replacesId} from ${submissions} where ${submissions.replacesId} is not null)`;
  return db
    .select()
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), inArray(submissions.status, ["rejected", "failed"]), notInArray(submissions.id, replaced)))
    .orderBy(asc(submissions.updatedAt), asc(submissions.id))
    .limit(limit);
}

export type ClaimLink = Pick<Submission, "id" | "status" | "createdAt">;

/** Claims linked by fix-and-resubmit: the one this replaces and the ones that replace it. */
export async function replacementLinks(db: Db, id: string, replacesId: string | null): Promise<{ replacedBy: ClaimLink[]; replaces: ClaimLink | undefined }> {
  const [replacedBy, replaces] = await Promise.all([
    db.select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt }).from(submissions).where(eq(submissions.replacesId, id)),
    replacesId
      ? db.select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt }).from(submissions).where(eq(submissions.id, replacesId))
      : Promise.resolve([]),
  ]);
  return { replacedBy, replaces: replaces[0] };
}

/**
 * The prior authorization a claim refers to: the portal's authorization it came from
 * (`authorizationId`), else the one whose stored answer carries this reference.
 */
export async function authorizationForClaim(db: Db, authorizationId: string | null, preAuthRef: string): Promise<Pick<Submission, "id" | "status" | "responseView"> | undefined> {
  const [row] = await db
    .select({ id: submissions.id, status: submissions.status, responseView: submissions.responseView })
    .from(submissions)
    .where(
      authorizationId
        ? and(eq(submissions.id, authorizationId), eq(submissions.kind, "preauthorization"))
        : and(eq(submissions.kind, "preauthorization"), sql`${submissions.responseView}->>'preAuthRef' = ${preAuthRef}`),
    )
    .limit(1);
  return row;
}

export interface AppealCandidate {
  id: string;
  status: string;
  insurer_id: string | null;
  patient_id: string;
  updated_at: Date | string;
  currency: string | null;
  at_stake: string;
  reason: string | null;
  family: string | null;
  decided_day: string;
  window_days: number;
}

/**
 * Decided claims with money still at stake on denied or cut lines (denial_lines, decision 076),
 * not yet appealed or replaced, whose appeal window (the insurer's resubmission window, else
 * `defaultWindowDays`) is still open; the day of the decision in `timeZone`.
 */
export async function appealCandidates(db: Db, timeZone: string, defaultWindowDays: number): Promise<AppealCandidate[]> {
  return queryRows<AppealCandidate>(db, sql`
    select s.id, s.status, s.insurer_id, s.patient_id, s.updated_at, s.currency,
      d.at_stake::text as at_stake, d.reason, d.family,
      to_char(coalesce(s.decided_at, s.updated_at) at time zone ${timeZone}, 'YYYY-MM-DD') as decided_day,
      coalesce(w.resubmission_days, ${defaultWindowDays})::int as window_days
    from submissions s
    left join insurer_filing_windows w on w.insurer_id = s.insurer_id
    cross join lateral (
      select sum(l.at_stake_minor) as at_stake,
        (array_agg(l.reason_code order by l.at_stake_minor desc, l.sequence))[1] as reason,
        (array_agg(l.family order by l.at_stake_minor desc, l.sequence))[1] as family
      from denial_lines l where l.submission_id = s.id
    ) d
    where s.kind = 'claim' and s.status in ('denied', 'partial')
      and coalesce(s.decided_at, s.updated_at) >= now() - make_interval(days => coalesce(w.resubmission_days, ${defaultWindowDays}) + 1)
      and d.at_stake > 0
      and not exists (select 1 from submissions a where a.appeal_of_id = s.id)
      and not exists (select 1 from submissions r where r.replaces_id = s.id)`);
}

/** Which of these ids are claims (ids of other kinds, or of nothing, left out). */
export async function claimIdsAmong(db: Db, ids: readonly string[]): Promise<string[]> {
  const rows = await db.select({ id: submissions.id }).from(submissions).where(and(inArray(submissions.id, [...ids]), eq(submissions.kind, "claim")));
  return rows.map((r) => r.id);
}

/** Whether this id is a claim's. */
export async function isClaimId(db: Db, id: string): Promise<boolean> {
  const [claim] = await db.select({ id: submissions.id }).from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, "claim")));
  return Boolean(claim);
}

/** One claim (undefined: no such id, or not a claim). */
export async function getClaim(db: Db, id: string): Promise<Submission | undefined> {
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, "claim")));
  return row;
}

export type ReconcileMatch = Pick<Submission, "id" | "status" | "totalMinor" | "platformId" | "identifierValue">;

/** The claims the platform's may be: by the platform's ids or by our identifier values. */
export async function claimsByPlatformIdOrIdentifier(db: Db, platformIds: readonly string[], identifierValues: readonly string[]): Promise<ReconcileMatch[]> {
  return db
    .select({ id: submissions.id, status: submissions.status, totalMinor: submissions.totalMinor, platformId: submissions.platformId, identifierValue: submissions.identifierValue })
    .from(submissions)
    .where(
      and(
        eq(submissions.kind, "claim"),
        or(platformIds.length ? inArray(submissions.platformId, [...platformIds]) : undefined, identifierValues.length ? inArray(submissions.identifierValue, [...identifierValues]) : undefined),
      ),
    );
}
