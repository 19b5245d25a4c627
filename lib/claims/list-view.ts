import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import type { Db, SubmissionStatus } from "@/lib/db";
import { deadlinesFor, type Deadline } from "@/lib/deadlines";
import { env } from "@/lib/env";
import { formatMinorUnits } from "@/lib/fhir";
import { statusLabel, type StatusTone, type StatusWord } from "@/lib/i18n";
import { insurerNames } from "@/lib/patients";
import { claimPayments } from "@/lib/payments";
import { submissionLabels } from "@/lib/submissions";
import { clinicToday } from "@/lib/time";
import { CLAIM_SORTS, countClaimsByStatus, isStatus, listClaims } from "./queries";

/*
 * The claims list as the browser shows it: the page renders it first, then `claimListAction`
 * answers the same view whenever live events make it stale (components/claims/claims-list.tsx).
 */

export interface ClaimTableRow {
  id: string;
  status: string;
  /** Words and tone from the one status vocabulary (lib/i18n/status-words.ts). */
  statusLabel: string;
  statusWord: StatusWord;
  statusTone: StatusTone;
  created: string;
  createdIso: string;
  patient: string;
  insurer: string;
  total: string;
  identifier: string;
  /** "C-1024", and the service and day of its label (lib/submissions/labels.ts). */
  number: string;
  service: string;
  replaces: boolean;
  /** Decision 047: "Paid on … in remittance …" (short: paid less than the benefit) and the filing-deadline countdown. */
  payment?: { text: string; short: boolean };
  deadline?: Deadline;
}

const text = z.string().max(100).optional().catch(undefined);

/** The list's URL parameters; anything malformed is ignored like an absent filter. */
export const claimListQuery = z.object({
  status: z.string().refine(isStatus).optional().catch(undefined) as z.ZodType<SubmissionStatus | undefined>,
  patient: text,
  q: text,
  insurer: text,
  from: text,
  to: text,
  // After "submit selected" the list shows that batch (whatever status filter was on before).
  batch: z.uuid().optional().catch(undefined),
  // The dashboard's "top fixable reasons" link here (docs/decisions/077).
  reason: text,
  sort: z.enum(CLAIM_SORTS).catch("created"),
  dir: z.enum(["asc", "desc"]).catch("desc"),
  cursor: text,
});
export type ClaimListQuery = z.output<typeof claimListQuery>;

export function parseClaimListQuery(params: Record<string, string | string[] | undefined>): ClaimListQuery {
  const single = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : undefined]));
  return claimListQuery.parse(single);
}

export interface ClaimListView {
  rows: ClaimTableRow[];
  counts: Partial<Record<SubmissionStatus, number>>;
  total: number;
  next?: string;
}

/** One page of claims (50), the status counts of the filters, in the request's language. */
export async function claimListView(db: Db, query: ClaimListQuery): Promise<ClaimListView> {
  const { cursor, sort, dir, ...filters } = query;
  const timeZone = env().CLINIC_TIME_ZONE;
  const [words, format, tp, locale] = [await getTranslations("statusWords"), await getFormatter(), await getTranslations("payments.claim"), await getLocale()];
  const [{ rows, next }, counts, insurerName] = await Promise.all([
    listClaims(db, { ...filters, sort, dir, cursor, limit: 50, timeZone }),
    countClaimsByStatus(db, filters, timeZone),
    insurerNames(db, locale),
  ]);
  const ids = rows.map((r) => r.id);
  const [payments, deadlines, labels] = await Promise.all([claimPayments(db, ids), deadlinesFor(db, ids, clinicToday(timeZone), timeZone), submissionLabels(db, ids, locale)]);
  const paymentOf = (id: string) => {
    const p = payments.get(id);
    return p ? { text: tp("paidOn", { date: format.dateTime(new Date(`${p.paymentDate}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }), remittance: p.remittance }), short: p.shortPaid } : undefined;
  };
  return {
    rows: rows.map((r) => {
      const label = statusLabel("claim", r.status, r.outcome);
      const deadline = deadlines.get(r.id);
      return {
        id: r.id,
        status: r.status,
        statusLabel: words(label.key),
        statusWord: label.word,
        statusTone: label.tone,
        created: format.dateTime(r.createdAt, { dateStyle: "medium", timeStyle: "short" }),
        createdIso: r.createdAt.toISOString(),
        patient: r.patient ? `${r.patient.givenName} ${r.patient.familyName}` : "—",
        insurer: r.insurerId ? insurerName(r.insurerId) : "—",
        total: r.totalMinor == null ? "—" : formatMinorUnits(r.totalMinor),
        identifier: r.identifierValue ?? "—",
        number: labels.get(r.id)?.number ?? "—",
        service: [labels.get(r.id)?.service, labels.get(r.id)?.day].filter(Boolean).join(" · "),
        replaces: Boolean(r.replacesId),
        ...(paymentOf(r.id) ? { payment: paymentOf(r.id) } : {}),
        ...(deadline ? { deadline } : {}),
      };
    }),
    counts,
    total: Object.values(counts).reduce((a, b) => a + (b ?? 0), 0),
    ...(next ? { next } : {}),
  };
}
