import { inArray } from "drizzle-orm";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "@/lib/cursor";
import type { Db, SubmissionStatus } from "@/lib/db";
import { patients, SUBMISSION_STATUSES } from "@/lib/db";
import { hasControlCharacters } from "@/lib/http";
import { outcomeOfView } from "@/lib/i18n";
import type { StatusOutcome } from "@/lib/i18n";
import { isPossibleDateText } from "@/lib/time";
import { authorizationForClaim, claimInsurerIds, claimPageRows, claimStatusCounts, claimsToFix, type ClaimFilters, type ClaimSort } from "@/lib/submissions";

/**
 * The claims list: filters, sorting, keyset pagination and counts per status (the rows read by
 * lib/submissions' claim reads). Only ids, statuses, totals and the registered patient's name
 * leave this module.
 */
export { CLAIM_SORTS, replacementLinks } from "@/lib/submissions";
export type { ClaimFilters, ClaimSort } from "@/lib/submissions";

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

/** One page of claims; `next` is the cursor of the following page (each row appears exactly once). */
export async function listClaims(db: Db, q: ClaimListQuery): Promise<{ rows: ClaimRow[]; next?: string }> {
  const limit = Math.min(Math.max(q.limit ?? 25, 1), 200);
  const sort = q.sort ?? "created";
  const dir = q.dir ?? "desc";
  const cursor = fromCursor(q.cursor);
  let after: { value: Date | number | string; id: string } | undefined;
  if (cursor) {
    const created = sort === "created" ? new Date(String(cursor.v)) : undefined;
    if (created && Number.isNaN(created.getTime())) return listClaims(db, { ...q, cursor: undefined });
    after = { value: created ?? (sort === "total" ? Number(cursor.v) : String(cursor.v)), id: cursor.id };
  }
  const rows = await claimPageRows(db, { filters: q, timeZone: q.timeZone, sort, dir, ...(after ? { after } : {}), take: limit + 1 });
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
  return claimStatusCounts(db, f, timeZone);
}

/** The insurers that occur in claims (for the filter). */
export async function claimInsurers(db: Db): Promise<string[]> {
  return claimInsurerIds(db);
}

/** Rejected and failed claims, oldest problem first, not yet replaced by a newer claim. */
export async function workQueue(db: Db, limit = 100) {
  return claimsToFix(db, limit);
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
  const row = await authorizationForClaim(db, authorizationId, preAuthRef);
  if (!row) return { preAuthRef };
  const period = row.responseView?.preAuthPeriod as { start?: string; end?: string } | undefined;
  return { preAuthRef, authorization: { id: row.id, status: row.status, ...(period && (period.start || period.end) ? { period } : {}) } };
}
