import { and, asc, desc, eq, gt, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Caller } from "@/lib/audit";
import { attachableIds, attachmentsWithData, checkSet } from "@/lib/attachments";
import { submissions, tables, type Db } from "@/lib/db";
import { nphies } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";
import { checkClaim } from "./claim-rules";
import { intake } from "./intake";
import { appealablePrescriptionLines, prescriptionViewOf } from "./prescriptions";
import { noteOnTimeline } from "./states";
import type { PlatformProtocol } from "./care-setting";

/**
 * Appeals (docs/decisions/081): for a denied or partly paid claim, a new claim that re-opens some
 * of its denied or cut lines, names it in `Claim.related` (the exchange's `prior`), and argues with
 * a written justification and supporting files. It is a submission like any other — stored,
 * queued and sent by the pipeline in either protocol, decided by the payer — linked to the claim it
 * appeals by `appeal_of_id`; the appealed claim's timeline notes it. A correction of a refused claim
 * stays fix-and-resubmit (`replaces_id`).
 */
const { denialLines } = tables;

export const APPEALABLE_STATUSES = ["denied", "partial"] as const;

export const appealInputSchema = z.object({
  claimId: z.uuid(),
  /** The sequences of the denied or cut lines appealed (at least one). */
  sequences: z.array(z.number().int().positive()).min(1, "linesRequired").max(100),
  justification: z.string().trim().min(10, "justificationShort").max(4000, "justificationLong"),
  attachmentIds: z.array(z.uuid()).max(20).default([]),
});
export type AppealInput = z.input<typeof appealInputSchema>;

export type AppealResult =
  | { ok: true; id: string }
  | { ok: false; error: "not_found" | "not_appealable" | "already_appealed" }
  | { ok: false; error: "invalid"; fieldErrors: Partial<Record<string, string[]>> };

export interface AppealableLine {
  sequence: number;
  serviceCode: string;
  outcome: string;
  reasonCode: string;
  family: string;
  atStakeMinor: number;
  currency: string;
}

/** The lines of a claim that may be appealed: its denied or cut lines (denial_lines, decision 076). */
export async function appealableLines(db: Db, claimId: string): Promise<AppealableLine[]> {
  if (!isUuid(claimId)) return [];
  return db
    .select({
      sequence: denialLines.sequence,
      serviceCode: denialLines.serviceCode,
      outcome: denialLines.outcome,
      reasonCode: denialLines.reasonCode,
      family: denialLines.family,
      atStakeMinor: denialLines.atStakeMinor,
      currency: denialLines.currency,
    })
    .from(denialLines)
    .where(and(eq(denialLines.submissionId, claimId), gt(denialLines.atStakeMinor, 0)))
    .orderBy(asc(denialLines.sequence));
}

/** The appeals of a claim, newest first: what the appealed claim's page and timeline show. */
export async function appealsOf(db: Db, claimId: string) {
  if (!isUuid(claimId)) return [];
  return db
    .select({ id: submissions.id, status: submissions.status, createdAt: submissions.createdAt, decidedAt: submissions.decidedAt, totalMinor: submissions.totalMinor, currency: submissions.currency, responseView: submissions.responseView })
    .from(submissions)
    .where(eq(submissions.appealOfId, claimId))
    .orderBy(desc(submissions.createdAt));
}

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === "object" && x !== null) : []);
const categoryCodes = (info: Json) => list((info.category as Json | undefined)?.coding).map((c) => c.code);

/**
 * The appeal's Claim, from the appealed one as it was sent: only the appealed lines, the earlier
 * claim's own supporting information (not its files or notes: the appeal argues with its own),
 * the justification and files appended, `related` naming the appealed claim, a new `created`.
 */
export function appealClaim(
  original: Json,
  prior: { platformId?: string; identifier: { system?: string; value: string } },
  input: { sequences: readonly number[]; justification: string; files: readonly { contentType: string; data: Uint8Array; title: string; creation: Date }[] },
  created: Date,
): Json {
  // Not carried over: its id, identifier (a new one is fixed when queued), meta, narrative, total and links.
  const rest = Object.fromEntries(Object.entries(original).filter(([key]) => !["id", "identifier", "meta", "text", "total", "related"].includes(key)));
  const wanted = new Set(input.sequences);
  // Numbered again from 1: the appeal is a claim of its own (the prior's lines are matched by code and date).
  const items = list(original.item)
    .filter((i) => wanted.has(Number(i.sequence)))
    .map((i, n) => ({ ...i, sequence: n + 1 }));
  // A prescription's lines name their MedicationRequest (contained, `#mr-n`): only the appealed lines' go along.
  const named = new Set(items.flatMap((i) => list((i as Json).extension).flatMap((e) => (typeof (e.valueReference as Json | undefined)?.reference === "string" ? [String((e.valueReference as Json).reference)] : []))));
  const contained = list(original.contained).filter((r) => r.resourceType !== "MedicationRequest" || named.has(`#${String(r.id)}`));
  const kept = list(original.supportingInfo).filter((s) => !categoryCodes(s).some((c) => c === nphies.APPEAL_EVIDENCE_CATEGORY || c === nphies.APPEAL_JUSTIFICATION_CATEGORY));
  let next = kept.reduce((m, s) => Math.max(m, Number(s.sequence) || 0), 0) + 1;
  const supportingInfo = [
    ...kept,
    nphies.justificationInfo(next++, input.justification),
    ...input.files.map((f) =>
      nphies.evidenceInfo(next++, { contentType: f.contentType, data: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength).toString("base64"), title: f.title, creation: f.creation.toISOString() }),
    ),
  ];
  return { ...rest, ...(contained.length > 0 ? { contained } : {}), created: created.toISOString(), item: items, supportingInfo, related: [nphies.appealRelated(prior)] };
}

/**
 * Files an appeal: checks the claim (a decided claim, denied or partly paid, not already under an
 * open appeal), the lines (each a denied or cut line of it) and the files (the caller's uploads,
 * within the limits), then in ONE transaction stores the appeal, links its files, queues it for
 * the pipeline, notes it on the appealed claim's timeline and writes the audit entry
 * (docs/decisions/062). `kinds` says what the caller may appeal: claims (billing, the default) or
 * prescriptions (prescribers, docs/decisions/121) — found under another kind, it is not found.
 */
export async function fileAppeal(deps: { db: Db; clock?: () => Date; kinds?: readonly ("claim" | "prescription")[]; protocol?: PlatformProtocol; auditAction?: string }, caller: Caller, raw: unknown, channel: "ui" | "exchange-api" = "ui"): Promise<AppealResult> {
  const parsed = appealInputSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<string, string[]>> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.length ? String(issue.path[0]) : "form"] ??= []).push(issue.message);
    if (fieldErrors.claimId) return { ok: false, error: "not_found" };
    return { ok: false, error: "invalid", fieldErrors };
  }
  const input = parsed.data;
  const { db } = deps;
  const [original] = await db.select().from(submissions).where(and(eq(submissions.id, input.claimId), inArray(submissions.kind, [...(deps.kinds ?? ["claim"])])));
  if (!original) return { ok: false, error: "not_found" };
  // A prescription is appealed as a claim is (guide 7.11, Table 40; docs/decisions/121): its refused or cut lines.
  const kind = original.kind === "prescription" ? "prescription" : "claim";
  if (!(APPEALABLE_STATUSES as readonly string[]).includes(original.status) || !original.identifierValue) return { ok: false, error: "not_appealable" };
  const open = (await appealsOf(db, original.id)).some((a) => !["complete", "partial", "denied", "rejected", "failed", "cancelled"].includes(a.status));
  if (open) return { ok: false, error: "already_appealed" };

  const view = kind === "prescription" ? prescriptionViewOf(original) : undefined;
  const lines = new Set(view ? appealablePrescriptionLines(view).map((l) => l.sequence) : (await appealableLines(db, original.id)).map((l) => l.sequence));
  const sequences = [...new Set(input.sequences)];
  if (sequences.some((s) => !lines.has(s))) return { ok: false, error: "invalid", fieldErrors: { sequences: ["lineNotAppealable"] } };
  const ids = [...new Set(input.attachmentIds)];
  const { ok, rows } = await attachableIds(db, ids, caller.userId);
  if (!ok) return { ok: false, error: "invalid", fieldErrors: { attachmentIds: ["attachmentUnknown"] } };
  const limit = checkSet(rows.map((r) => r.size));
  if (limit) return { ok: false, error: "invalid", fieldErrors: { attachmentIds: [limit === "tooLarge" ? "fileTooLarge" : limit === "tooMany" ? "tooManyFiles" : limit === "empty" ? "fileEmpty" : "totalTooLarge"] } };

  const files = await attachmentsWithData(db, ids);
  const at = (deps.clock ?? (() => new Date()))();
  const claim = appealClaim(
    original.claim,
    { ...(original.platformId ? { platformId: original.platformId } : {}), identifier: { ...(original.identifierSystem ? { system: original.identifierSystem } : {}), value: original.identifierValue } },
    { sequences, justification: input.justification, files: files.map((f) => ({ contentType: f.contentType, data: f.data, title: f.fileName, creation: f.createdAt })) },
    at,
  );
  // The exchange's rules asked of the appeal as of every intake's (claim-rules.ts).
  const checked = checkClaim(claim, { protocol: deps.protocol ?? "rest" });
  if (!checked.ok) return { ok: false, error: "invalid", fieldErrors: { form: ["exchangeRule"] } };
  const source = channel === "ui" ? "user" : "api";
  const entered = await intake(
    db,
    {
      kind,
      claim: checked.claim,
      patientNationalId: original.patientNationalId,
      ...(original.insurerId ? { insurerId: original.insurerId } : {}),
      form: { appeal: { of: original.id, sequences, justification: input.justification, attachmentIds: ids } },
      ...(caller.userId ? { createdBy: caller.userId } : {}),
      channel,
      links: { appealOfId: original.id },
      facilityId: original.facilityId,
      attachmentIds: ids,
    },
    {
      source,
      now: at,
      // Filing an appeal is billing's deliberate act on lines already decided: the scrubber's warnings
      // are recorded on the timeline, not asked again; its errors still stop it, and nothing is stored (docs/decisions/090).
      scrub: { acknowledgeWarnings: true },
      whenBlocked: "store-nothing",
      audit: { actor: caller.actor, action: deps.auditAction ?? `${kind}.appeal`, requestId: caller.requestId, ip: caller.ip, details: { appealOf: original.id, lines: sequences.length, files: ids.length } },
      alongside: (tx, queued) => noteOnTimeline(tx, original, { kind: "submission.note", note: "appealFiled", source, detail: { appealId: queued.id, lines: sequences.length, files: ids.length } }, at),
    },
  );
  if (entered.outcome === "blocked") return { ok: false, error: "invalid", fieldErrors: { form: entered.error.result.errors.map((f) => `scrub:${f.code}`) } };
  if (entered.outcome !== "queued") throw new Error("an appeal's intake names no draft and no replay");
  return { ok: true, id: entered.submission.id };
}
