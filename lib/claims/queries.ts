import { and, asc, desc, eq, gte, ilike, inArray, lt, notInArray, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "@/lib/cursor";
import type { Db, SubmissionStatus } from "@/lib/db";
import { patients, submissions, SUBMISSION_STATUSES } from "@/lib/db";
import { hasControlCharacters } from "@/lib/http";
import { outcomeOfView } from "@/lib/i18n";
import type { StatusOutcome } from "@/lib/i18n";
import { startOfZonedDay, addDays, isCalendarDate, isPossibleDateText } from "@/lib/time";
import { isUuid } from "@/lib/ids";
import { parseShortNumber } from "@/lib/submissions";

/**
 * The claims list: filters, sorting, keyset pagination and counts per status. Only ids, statuses,
 * totals and the registered patient's name leave this module.
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

export interface ClaimListQuery extends ClaimFilters {
  sort?: ClaimSort;
  dir?: "asc" | "desc";
  cursor?: string;
  limit?: number;
  timeZone: string;
}

export interface ClaimRow {
  id: string;
  status: SubmissionStatus;
  createdAt: Date;
  totalMinor: number | null;
  currency: string | null;
  insurerId: string | null;
  identifierValue: string | null;
  replacesId: string | null;
  /** What the decision paid (zero-benefit claims read "Not payable"). */
  outcome?: StatusOutcome;
  patient?: { id: string; givenName: string; familyName: string };
}

/** The sort key as one comparable SQL expression (nulls folded so keyset comparisons hold). */
function sortExpr(sort: ClaimSort): SQL {
  if (sort === "total") return sql`coalesce(${submissions.totalMinor}, -1)`;
  if (sort === "status") return sql`${submissions.status}`;
  return sql`${submissions.createdAt}`;
}

interface Cursor {
  v: string | number;
  id: string;
}

// Checked before it reaches SQL: a forged cursor (not a uuid, an impossible date, NUL) is ignored, never a 500.
const cursorValue = z.union([
  z.number().refine(Number.isSafeInteger),
  z
    .string()
    .max(200)
    .refine((v) => !hasControlCharacters(v) && (!/^\d{4}-/.test(v) || (isPossibleDateText(v) && !Number.isNaN(Date.parse(v))))),
]);
const cursorKey = z.tuple([cursorValue, z.uuid()]);

function toCursor(c: Cursor): string {
  return encodeCursor([c.v, c.id]);
}
function fromCursor(value: string | undefined): Cursor | undefined {
  const key = decodeCursor(value, cursorKey);
  return key && { v: key[0], id: key[1] };
}

export function isStatus(value: unknown): value is SubmissionStatus {
  return typeof value === "string" && (SUBMISSION_STATUSES as readonly string[]).includes(value);
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

/** One page of claims; `next` is the cursor of the following page (each row appears exactly once). */
export async function listClaims(db: Db, q: ClaimListQuery): Promise<{ rows: ClaimRow[]; next?: string }> {
  const limit = Math.min(Math.max(q.limit ?? 25, 1), 200);
  const sort = q.sort ?? "created";
  const dir = q.dir ?? "desc";
  const key = sortExpr(sort);
  const where = filterWhere(q, q.timeZone, true);
  const cursor = fromCursor(q.cursor);
  if (cursor) {
    const created = sort === "created" ? new Date(String(cursor.v)) : undefined;
    if (created && Number.isNaN(created.getTime())) return listClaims(db, { ...q, cursor: undefined });
    const v = created ? sql`${created.toISOString()}::timestamptz` : sort === "total" ? sql`${Number(cursor.v)}::integer` : sql`${String(cursor.v)}`;
    const cmp = dir === "desc" ? sql`(${key}, ${submissions.id}) < (${v}, ${cursor.id}::uuid)` : sql`(${key}, ${submissions.id}) > (${v}, ${cursor.id}::uuid)`;
    where.push(cmp);
  }
  const order = dir === "desc" ? [desc(key), desc(submissions.id)] : [asc(key), asc(submissions.id)];
  const rows = await db
    .select()
    .from(submissions)
    .where(and(...where))
    .orderBy(...order)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const ids = [...new Set(page.map((r) => r.patientNationalId))];
  const people = ids.length
    ? await db
        .select({ id: patients.id, nationalId: patients.nationalId, givenName: patients.givenName, familyName: patients.familyName })
        .from(patients)
        .where(inArray(patients.nationalId, ids))
    : [];
  const byNid = new Map(people.map((p) => [p.nationalId, p]));
  const last = page[page.length - 1];
  const next =
    rows.length > limit && last
      ? toCursor({ v: sort === "created" ? last.createdAt.toISOString() : sort === "total" ? (last.totalMinor ?? -1) : last.status, id: last.id })
      : undefined;
  return {
    rows: page.map((r) => {
      const p = byNid.get(r.patientNationalId);
      return {
        id: r.id,
        status: r.status,
        createdAt: r.createdAt,
        totalMinor: r.totalMinor,
        currency: r.currency,
        insurerId: r.insurerId,
        identifierValue: r.identifierValue,
        replacesId: r.replacesId,
        ...(r.responseView ? { outcome: outcomeOfView(r.responseView) } : {}),
        ...(p ? { patient: { id: p.id, givenName: p.givenName, familyName: p.familyName } } : {}),
      };
    }),
    ...(next ? { next } : {}),
  };
}

/** How many claims per status under the filters (status filter ignored: the chips choose it). */
export async function countClaimsByStatus(db: Db, f: ClaimFilters, timeZone: string): Promise<Partial<Record<SubmissionStatus, number>>> {
  const rows = await db
    .select({ status: submissions.status, n: sql<number>`count(*)::int` })
    .from(submissions)
    .where(and(...filterWhere(f, timeZone, false)))
    .groupBy(submissions.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** The insurers that occur in claims (for the filter). */
export async function claimInsurers(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ insurerId: submissions.insurerId })
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), sql`${submissions.insurerId} is not null`))
    .orderBy(asc(submissions.insurerId));
  return rows.map((r) => r.insurerId!).filter(Boolean);
}

/** Rejected and failed claims, oldest problem first, not yet replaced by a newer claim. */
export async function workQueue(db: Db, limit = 100) {
  const replaced = sql`(select ${submissions.replacesId} from ${submissions} where ${submissions.replacesId} is not null)`;
  return db
    .select()
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), inArray(submissions.status, ["rejected", "failed"]), notInArray(submissions.id, replaced)))
    .orderBy(asc(submissions.updatedAt), asc(submissions.id))
    .limit(limit);
}

/** Claims linked by fix-and-resubmit: the one this replaces and the ones that replace it. */
export async function replacementLinks(db: Db, id: string, replacesId: string | null) {
  const [replacedBy, replaces] = await Promise.all([
    db.select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt }).from(submissions).where(eq(submissions.replacesId, id)),
    replacesId
      ? db.select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt }).from(submissions).where(eq(submissions.id, replacesId))
      : Promise.resolve([]),
  ]);
  return { replacedBy, replaces: replaces[0] };
}


export interface ClaimAuthorization {
  /** The reference the claim carries (Claim.insurance[].preAuthRef), as sent. */
  preAuthRef: string;
  /** The portal's authorization it came from, when the claim was made from one (or the reference matches one). */
  authorization?: { id: string; status: SubmissionStatus; period?: { start?: string; end?: string } };
}

type Json = Record<string, unknown>;
const jsonList = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === "object" && x !== null) : []);

/**
 * The prior authorization a claim refers to: its reference from the Claim as sent and, when the
 * portal holds that authorization, its status and validity period (from the stored answer's view).
 */
export async function claimAuthorization(db: Db, claim: Json, authorizationId: string | null): Promise<ClaimAuthorization | undefined> {
  const preAuthRef = jsonList(claim.insurance)
    .flatMap((i) => (Array.isArray(i.preAuthRef) ? i.preAuthRef : []))
    .find((r): r is string => typeof r === "string" && r.length > 0);
  if (!preAuthRef) return undefined;
  const [row] = await db
    .select({ id: submissions.id, status: submissions.status, responseView: submissions.responseView })
    .from(submissions)
    .where(
      authorizationId
        ? and(eq(submissions.id, authorizationId), eq(submissions.kind, "preauthorization"))
        : and(eq(submissions.kind, "preauthorization"), sql`${submissions.responseView}->>'preAuthRef' = ${preAuthRef}`),
    )
    .limit(1);
  if (!row) return { preAuthRef };
  const period = row.responseView?.preAuthPeriod as { start?: string; end?: string } | undefined;
  return { preAuthRef, authorization: { id: row.id, status: row.status, ...(period && (period.start || period.end) ? { period } : {}) } };
}
