import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { audit, type Caller } from "@/lib/audit";
import { attachableIds, attachmentsWithData, checkSet } from "@/lib/attachments";
import { attachments, evidenceMessages, type Db, type EvidenceStatus } from "@/lib/db";
import { buildCommunication } from "@/lib/fhir";
import { PlatformError, portOf, type PortSource } from "@/lib/platform";
import { getSubmission, lockSubmission, noteOnTimeline } from "@/lib/submissions";
import { evidenceSchema } from "./schema";

export interface EvidenceDeps {
  db: Db;
  /** The port, or the facility ports (getPlatformPort): it goes out through the submission's facility. */
  port: PortSource;
  providerOrgId: string;
  clock?: () => Date;
}

/** Where information may be sent: a claim or authorization the payer holds and has decided (or is deciding). */
const SENDABLE = ["sent", "pended", "complete", "partial", "denied"] as const;

export type EvidenceResult =
  | { ok: true; id: string; communicationId: string }
  | { ok: false; error: "not_found" | "not_sendable"; reason?: string }
  | { ok: false; error: "invalid"; fieldErrors: Partial<Record<string, string[]>> }
  | { ok: false; error: "platform"; reason?: string };

export interface EvidenceRow {
  id: string;
  status: EvidenceStatus;
  characters: number;
  files: number;
  sequences: number[];
  createdAt: Date;
  sentAt: Date | null;
  acknowledgedAt: Date | null;
}

/**
 * Sends the payer information about a claim or an authorization of its own accord (guide v2.7
 * 7.4.1, 7.4.2.3): a Communication about it by its business identifier, with text and/or files,
 * no CommunicationRequest. Stored before it goes out (the acknowledgement may be polled before
 * the send returns; it is matched by this Communication's id), marked sent when the exchange took
 * it, noted on the submission's timeline (without the text: the timeline is patient-free) and
 * audited. The payer may answer with a reissued decision, which the inbound routing applies.
 */
export async function sendEvidence(deps: EvidenceDeps, caller: Caller, raw: unknown, channel: "ui" | "exchange-api" = "ui"): Promise<EvidenceResult> {
  const parsed = evidenceSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<string, string[]>> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.length ? String(issue.path[0]) : "form"] ??= []).push(issue.message);
    if (fieldErrors.submissionId) return { ok: false, error: "not_found" };
    return { ok: false, error: "invalid", fieldErrors };
  }
  const input = parsed.data;
  const now = deps.clock ?? (() => new Date());
  const submission = await getSubmission(deps.db, input.submissionId);
  if (!submission) return { ok: false, error: "not_found" };
  if (!(SENDABLE as readonly string[]).includes(submission.status) || !submission.identifierValue) return { ok: false, error: "not_sendable" };
  const lines = new Set(((submission.claim as { item?: { sequence?: number }[] }).item ?? []).map((i) => i.sequence));
  const sequences = [...new Set(input.sequences)];
  if (sequences.some((s) => !lines.has(s))) return { ok: false, error: "invalid", fieldErrors: { sequences: ["lineUnknown"] } };
  const ids = [...new Set(input.attachmentIds)];
  const attachable = await attachableIds(deps.db, ids, caller.userId, submission.id);
  if (!attachable.ok) return { ok: false, error: "invalid", fieldErrors: { attachmentIds: ["attachmentUnknown"] } };
  const limit = checkSet(attachable.rows.map((r) => r.size));
  if (limit) return { ok: false, error: "invalid", fieldErrors: { attachmentIds: [limit === "tooLarge" ? "fileTooLarge" : limit === "tooMany" ? "tooManyFiles" : limit === "empty" ? "fileEmpty" : "totalTooLarge"] } };
  const files = await attachmentsWithData(deps.db, ids);
  const text = input.text.trim();
  const lineWords = sequences.length > 0 ? `Lines ${sequences.join(", ")}: ` : "";
  const communication = buildCommunication({
    id: randomUUID(),
    about: { identifier: { ...(submission.identifierSystem ? { system: submission.identifierSystem } : {}), value: submission.identifierValue } },
    providerOrgId: deps.providerOrgId,
    ...(submission.insurerId ? { recipientOrgId: submission.insurerId } : {}),
    ...(text || lineWords ? { text: `${lineWords}${text}`.trim() } : {}),
    attachments: files.map((f) => ({ contentType: f.contentType, data: f.data, title: f.fileName, creation: f.createdAt })),
    sent: now(),
  });
  // The stored copy keeps no file bytes (they stay in `attachments`, linked to the submission).
  const stored = JSON.parse(JSON.stringify({ ...communication, payload: communication.payload?.map((p) => (p.contentAttachment ? { contentAttachment: { ...p.contentAttachment, data: undefined } } : p)) })) as Record<string, unknown>;
  const [row] = await deps.db
    .insert(evidenceMessages)
    .values({ submissionId: submission.id, communicationId: communication.id!, text: text || null, attachmentIds: ids, sequences, communication: stored, createdBy: caller.userId ?? null, channel, createdAt: now() })
    .returning({ id: evidenceMessages.id });
  let sent;
  try {
    sent = await (await portOf(deps.port, submission.facilityId)).sendCommunication(communication, { requestId: caller.requestId });
  } catch (error) {
    // Not sent: nothing stays behind (the form keeps what was typed).
    await deps.db.delete(evidenceMessages).where(and(eq(evidenceMessages.id, row!.id), isNull(evidenceMessages.acknowledgedAt)));
    await audit(deps.db, { actor: caller.actor, action: "evidence.send", target: { type: "submission", id: submission.id }, outcome: "failure", requestId: caller.requestId, ip: caller.ip });
    return { ok: false, error: "platform", ...(error instanceof PlatformError ? { reason: error.resolution ?? error.message } : {}) };
  }
  const at = now();
  await deps.db.transaction(async (tx) => {
    // Already acknowledged (the acknowledgement overtook this commit): it stays so.
    await tx
      .update(evidenceMessages)
      .set({ status: "sent", sentAt: at, sendRequestId: sent.requestId })
      .where(and(eq(evidenceMessages.id, row!.id), eq(evidenceMessages.status, "sending")));
    await tx.update(evidenceMessages).set({ sentAt: at, sendRequestId: sent.requestId }).where(and(eq(evidenceMessages.id, row!.id), isNull(evidenceMessages.sentAt)));
    if (ids.length > 0) await tx.update(attachments).set({ submissionId: submission.id }).where(and(inArray(attachments.id, ids), isNull(attachments.submissionId)));
    const current = await lockSubmission(tx, submission.id);
    await noteOnTimeline(tx, current!, { kind: "submission.note", note: "evidenceSent", source: channel === "ui" ? "user" : "api", requestId: sent.requestId, payload: { evidenceId: row!.id, files: ids.length, lines: sequences.length } }, at);
    await audit(tx, {
      actor: caller.actor,
      action: "evidence.send",
      target: { type: "submission", id: submission.id },
      outcome: "success",
      requestId: caller.requestId,
      ip: caller.ip,
      details: { evidenceId: row!.id, communicationId: communication.id, characters: text.length, files: ids.length, lines: sequences.length },
    });
  });
  return { ok: true, id: row!.id, communicationId: communication.id! };
}

/** What was sent to the payer about a submission, newest first (no text: the list says how much). */
export async function evidenceOf(db: Db, submissionId: string): Promise<EvidenceRow[]> {
  const rows = await db.select().from(evidenceMessages).where(eq(evidenceMessages.submissionId, submissionId)).orderBy(desc(evidenceMessages.createdAt));
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    characters: r.text?.length ?? 0,
    files: r.attachmentIds.length,
    sequences: r.sequences,
    createdAt: r.createdAt,
    sentAt: r.sentAt,
    acknowledgedAt: r.acknowledgedAt,
  }));
}

/** The kind of a submission, to check the sender's role: a claim or an authorization (evidence is sent about no other kind). */
export async function submissionKindOf(db: Db, id: string): Promise<"claim" | "preauthorization" | "prescription" | undefined> {
  const row = await getSubmission(db, id);
  return row?.kind === "claim" || row?.kind === "preauthorization" || row?.kind === "prescription" ? row.kind : undefined;
}
