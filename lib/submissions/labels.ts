import { inArray } from "drizzle-orm";
import type { Db, SubmissionKind } from "@/lib/db";
import { patients, submissions } from "@/lib/db";
import { env } from "@/lib/env";
import { CODE_SYSTEMS, findCode } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";
import { codeNames } from "@/lib/terminology";

/*
 * How staff name a claim or an authorization (docs/decisions/122): its short number, the patient,
 * the first service and the day — "C-1024 · Huda Al-Sandbox · Consultation · Nov 12". This is the
 * one place the label is made; lists, headings, timelines, the work queue, the live board, the
 * dashboard and the menu ask `submissionLabels` and never build it themselves.
 */

const PREFIX: Record<SubmissionKind, string> = { claim: "C", preauthorization: "A", prescription: "P" };

/** "C-1024": the kind's letter and the number the database gave the submission. */
export function shortNumber(kind: SubmissionKind, number: number): string {
  return `${PREFIX[kind]}-${number}`;
}

/**
 * The number a search text names, when it names one: "C-1024", "c1024", "A 1024", "#1024" or
 * "1024" → 1024 (with the kind its letter says). Anything else → undefined.
 */
export function parseShortNumber(text: string): { number: number; kind?: SubmissionKind } | undefined {
  const m = /^\s*#?\s*([cap])?\s*-?\s*(\d{1,9})\s*$/i.exec(text);
  if (!m) return undefined;
  const number = Number(m[2]);
  if (!Number.isSafeInteger(number) || number > 2147483647) return undefined;
  const letter = m[1]?.toUpperCase();
  const kind = (Object.entries(PREFIX) as [SubmissionKind, string][]).find(([, p]) => p === letter)?.[0];
  return kind ? { number, kind } : { number };
}

export interface SubmissionLabel {
  /** "C-1024" */
  number: string;
  /** "C-1024 · Huda Al-Sandbox · Consultation · Nov 12" (patient, service, day as far as known). */
  text: string;
  /** The same without the number (for a heading that shows the number apart). */
  subject: string;
  /** Its parts, for a table that shows the patient in a column of its own. */
  patient?: string;
  service?: string;
  day: string;
}

type Json = Record<string, unknown>;

interface Row {
  id: string;
  kind: SubmissionKind;
  number: number;
  patientId: string;
  claim: Json;
  createdAt: Date;
}

function firstService(claim: Json): { system?: string; code?: string; display?: string; servicedDate?: string; more: number } {
  const items = Array.isArray(claim.item) ? (claim.item as Json[]) : [];
  const item = items[0];
  const coding = ((item?.productOrService as Json | undefined)?.coding as Json[] | undefined)?.[0];
  return {
    system: typeof coding?.system === "string" ? coding.system : undefined,
    code: typeof coding?.code === "string" ? coding.code : undefined,
    display: typeof coding?.display === "string" && coding.display.trim() ? coding.display.trim() : undefined,
    servicedDate: typeof item?.servicedDate === "string" ? item.servicedDate : undefined,
    more: Math.max(items.length - 1, 0),
  };
}

/** "Nov 12" in English, "12 نوفمبر" in Arabic (with the year when it is not the clinic's current year), in the clinic's time zone. */
export function labelDay(date: Date | string, locale: string, timeZone: string = env().CLINIC_TIME_ZONE, now: Date = new Date()): string {
  // A service date is a calendar day: read it at noon UTC and format it in UTC (no day shift).
  const calendar = typeof date === "string";
  const at = calendar ? new Date(`${date.slice(0, 10)}T12:00:00Z`) : date;
  if (Number.isNaN(at.getTime())) return typeof date === "string" ? date : "";
  const zone = calendar ? "UTC" : timeZone;
  const year = (d: Date, z: string) => new Intl.DateTimeFormat("en", { year: "numeric", timeZone: z }).format(d);
  const sameYear = year(at, zone) === year(now, timeZone);
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }), timeZone: zone, numberingSystem: "latn" }).format(at);
}

/** The labels of these submissions, in the page's language; unknown ids are absent. */
export async function submissionLabels(db: Db, ids: readonly (string | null | undefined)[], locale: string): Promise<Map<string, SubmissionLabel>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === "string" && isUuid(id)))];
  if (wanted.length === 0) return new Map();
  const rows: Row[] = await db
    .select({ id: submissions.id, kind: submissions.kind, number: submissions.number, patientId: submissions.patientNationalId, claim: submissions.claim, createdAt: submissions.createdAt })
    .from(submissions)
    .where(inArray(submissions.id, wanted));
  const nationalIds = [...new Set(rows.map((r) => r.patientId))];
  const people = nationalIds.length
    ? await db.select({ nationalId: patients.nationalId, givenName: patients.givenName, familyName: patients.familyName }).from(patients).where(inArray(patients.nationalId, nationalIds))
    : [];
  const nameOf = new Map(people.map((p) => [p.nationalId, `${p.givenName} ${p.familyName}`.trim()]));
  const services = rows.map((r) => ({ id: r.id, ...firstService(r.claim) }));
  const names = await codeNames(
    db,
    services.filter((s) => s.system && s.code).map((s) => ({ system: s.system!, code: s.code! })),
  );
  const ar = locale.startsWith("ar");
  const serviceName = (s: (typeof services)[number]): string | undefined => {
    if (!s.code) return undefined;
    const named = (s.system && names.get(`${s.system}|${s.code}`)) || (s.system === CODE_SYSTEMS.cpt || !s.system ? findCode("cpt", s.code)?.display : undefined);
    // A code the catalogue does not name (a medicine of a prescription, say) goes by the words it was sent with.
    const name = named ? (ar ? named.ar || named.en : named.en || named.ar) : (s.display ?? s.code);
    return s.more > 0 ? `${name} +${s.more}` : name;
  };
  const timeZone = env().CLINIC_TIME_ZONE;
  const byId = new Map(services.map((s) => [s.id, s]));
  return new Map(
    rows.map((r) => {
      const s = byId.get(r.id)!;
      const number = shortNumber(r.kind, r.number);
      const patient = nameOf.get(r.patientId);
      const service = serviceName(s);
      const day = labelDay(s.servicedDate ?? r.createdAt, locale, timeZone);
      const parts = [patient, service, day].filter((p): p is string => Boolean(p));
      const subject = parts.join(" · ");
      return [r.id, { number, subject, text: [number, ...parts].join(" · "), ...(patient ? { patient } : {}), ...(service ? { service } : {}), day }];
    }),
  );
}

/** One submission's label (a heading, a breadcrumb, a page title). */
export async function submissionLabel(db: Db, id: string, locale: string): Promise<SubmissionLabel | undefined> {
  return (await submissionLabels(db, [id], locale)).get(id);
}

/** Only the short number ("C-1024"): a browser tab's title carries no patient name. */
export async function submissionNumber(db: Db, id: string): Promise<string | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select({ kind: submissions.kind, number: submissions.number }).from(submissions).where(inArray(submissions.id, [id]));
  return row ? shortNumber(row.kind, row.number) : undefined;
}
