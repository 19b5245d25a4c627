import { and, desc, eq, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { parseShortNumber } from "./labels";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "@/lib/cursor";
import type { Db, SubmissionStatus } from "@/lib/db";
import { isPossibleDateText } from "@/lib/time";
import { patients, submissions, SUBMISSION_STATUSES } from "@/lib/db";
import { submissionTimeline, type TimelineEntry } from "./lifecycle";
import type { Submission } from "./states";
import { listAttachments, type AttachmentMeta } from "@/lib/attachments";
import { outcomeOfView } from "@/lib/i18n";
import type { StatusOutcome } from "@/lib/i18n";
import { readDecision, type DecisionView } from "./decision";
import type { SubmissionUse } from "./form-schema";
import { isUuid } from "@/lib/ids";
import { PAYER_CHANNEL } from "./payer-authorization";

const validUntilOf = (view: Record<string, unknown> | null): string | undefined => {
  const end = (view?.preAuthPeriod as { end?: unknown } | undefined)?.end;
  return typeof end === "string" ? end : undefined;
};

export interface SubmissionListRow {
  id: string;
  status: SubmissionStatus;
  createdAt: Date;
  updatedAt: Date;
  totalMinor: number | null;
  currency: string | null;
  /** The clinic's patient (internal id and name), when registered. */
  patient?: { id: string; givenName: string; familyName: string };
  preAuthRef?: string;
  /** What the decision paid (zero-benefit decisions have their own words). */
  outcome?: StatusOutcome;
  /** A payer's advanced authorization: approved by the payer, never asked for (docs/decisions/101). */
  fromPayer?: true;
  /** Its validity, when the payer gave one (advanced authorizations). */
  validUntil?: string;
}

export interface ListQuery {
  use: SubmissionUse;
  status?: SubmissionStatus;
  /** Keyset cursor: (createdAt, id) of the last row of the previous page. */
  before?: { createdAt: Date; id: string };
  limit?: number;
  /**
   * A search (docs/decisions/122): the short number ("A-1024"), the payer's reference (preAuthRef)
   * or our identifier (exact), or the patient's national ID (exact) or part of their name.
   */
  search?: string;
}

export function isSubmissionStatus(value: unknown): value is SubmissionStatus {
  return typeof value === "string" && (SUBMISSION_STATUSES as readonly string[]).includes(value);
}

const cursorKey = z.tuple([z.iso.datetime().refine(isPossibleDateText), z.uuid()]);

/** (createdAt, id) of a page's last row ⇄ the `before` parameter (lib/cursor). */
export function cursorParam(cursor: { createdAt: Date; id: string }): string {
  return encodeCursor([cursor.createdAt.toISOString(), cursor.id]);
}
export function parseCursor(value: unknown): { createdAt: Date; id: string } | undefined {
  const key = decodeCursor(value, cursorKey);
  return key && { createdAt: new Date(key[0]), id: key[1] };
}

/** Newest first, keyset-paginated on (created_at, id). */
export async function listSubmissions(db: Db, q: ListQuery): Promise<{ rows: SubmissionListRow[]; next?: { createdAt: Date; id: string } }> {
  const limit = Math.min(Math.max(q.limit ?? 25, 1), 100);
  const where: SQL[] = [eq(submissions.kind, q.use)];
  if (q.status) where.push(eq(submissions.status, q.status));
  const text = q.search?.trim().slice(0, 100);
  if (text) {
    const n = parseShortNumber(text);
    const like = `%${text.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
    where.push(
      or(
        ...(n && (!n.kind || n.kind === q.use) ? [eq(submissions.number, n.number)] : []),
        sql`${submissions.response}->>'preAuthRef' = ${text}`,
        eq(submissions.identifierValue, text),
        eq(submissions.platformId, text),
        eq(submissions.patientNationalId, text),
        inArray(
          submissions.patientNationalId,
          sql`(select ${patients.nationalId} from ${patients} where ${ilike(patients.givenName, like)} or ${ilike(patients.familyName, like)} or (${patients.givenName} || ' ' || ${patients.familyName}) ilike ${like})`,
        ),
      )!,
    );
  }
  if (q.before) {
    where.push(or(lt(submissions.createdAt, q.before.createdAt), and(eq(submissions.createdAt, q.before.createdAt), lt(submissions.id, q.before.id)))!);
  }
  const rows = await db
    .select()
    .from(submissions)
    .where(and(...where))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const nationalIds = [...new Set(page.map((r) => r.patientNationalId))];
  const people = nationalIds.length
    ? await db
        .select({ id: patients.id, nationalId: patients.nationalId, givenName: patients.givenName, familyName: patients.familyName })
        .from(patients)
        .where(inArray(patients.nationalId, nationalIds))
    : [];
  const byNationalId = new Map(people.map((p) => [p.nationalId, p]));
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => {
      const p = byNationalId.get(r.patientNationalId);
      const preAuthRef = typeof r.response?.preAuthRef === "string" ? r.response.preAuthRef : undefined;
      return {
        id: r.id,
        status: r.status,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        totalMinor: r.totalMinor,
        currency: r.currency,
        ...(p ? { patient: { id: p.id, givenName: p.givenName, familyName: p.familyName } } : {}),
        ...(preAuthRef ? { preAuthRef } : {}),
        ...(r.responseView ? { outcome: outcomeOfView(r.responseView) } : {}),
        ...(r.channel === PAYER_CHANNEL ? { fromPayer: true as const, ...(validUntilOf(r.responseView) ? { validUntil: validUntilOf(r.responseView) } : {}) } : {}),
      };
    }),
    ...(rows.length > limit && last ? { next: { createdAt: last.createdAt, id: last.id } } : {}),
  };
}

export interface SubmissionView {
  submission: Submission;
  timeline: TimelineEntry[];
  attachments: AttachmentMeta[];
  decision?: DecisionView;
  patient?: { id: string; givenName: string; familyName: string; nationalId: string };
  /** Claims made from this authorization. */
  claims: { id: string; status: SubmissionStatus; createdAt: Date }[];
  /** A later version of this authorization that the payer approved, which overrides it (docs/decisions/101). */
  overriddenBy?: { id: string; decidedAt: Date | null };
}

export async function getSubmissionView(db: Db, id: string, use: SubmissionUse | "prescription"): Promise<SubmissionView | undefined> {
  if (!isUuid(id)) return undefined;
  const [submission] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, use)));
  if (!submission) return undefined;
  const [timeline, attachments, [patient], claims, [overriding]] = await Promise.all([
    submissionTimeline(db, id),
    listAttachments(db, id),
    db
      .select({ id: patients.id, givenName: patients.givenName, familyName: patients.familyName, nationalId: patients.nationalId })
      .from(patients)
      .where(eq(patients.nationalId, submission.patientNationalId)),
    db
      .select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt })
      .from(submissions)
      .where(and(eq(submissions.authorizationId, id), eq(submissions.kind, "claim")))
      .orderBy(desc(submissions.createdAt)),
    use === "preauthorization"
      ? db
          .select({ id: submissions.id, decidedAt: submissions.decidedAt })
          .from(submissions)
          .where(and(eq(submissions.replacesId, id), eq(submissions.kind, "preauthorization"), inArray(submissions.status, ["complete", "partial"])))
          .orderBy(desc(submissions.decidedAt))
          .limit(1)
      : Promise.resolve([]),
  ]);
  return { submission, timeline, attachments, decision: readDecision(submission.response, submission.claim, submission.responseView), patient, claims, ...(overriding ? { overriddenBy: overriding } : {}) };
}
