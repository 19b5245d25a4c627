import { randomUUID } from "node:crypto";
import { and, inArray, isNull } from "drizzle-orm";
import { audit, type Caller } from "@/lib/audit";
import { attachableIds, attachmentsWithData, checkSet } from "@/lib/attachments";
import { attachments, type Db, type InformationRequestStatus, type SubmissionKind } from "@/lib/db";
import {
  INFORMATION_REQUEST_FILTERS,
  clearInformationRequestSending,
  getInformationRequest,
  getSubmission,
  informationRequestQueue,
  informationRequestSubmissionKind,
  markInformationRequestAnswered,
  markInformationRequestSending,
  noteOnTimeline,
  openInformationRequestCounts,
  type InformationRequestFilter,
  type InformationRequestQueueRow,
} from "@/lib/submissions";
import { buildCommunication, isFhirReadError, readCommunicationRequest } from "@/lib/fhir";
import { PlatformError, portOf, type PortSource } from "@/lib/platform";
import { INFORMATION_REQUEST_EVENT } from "./inbound";

export interface AnswerDeps {
  db: Db;
  /** The port, or the facility ports (getPlatformPort): the answer goes out through the claim's facility. */
  port: PortSource;
  providerOrgId: string;
  clock?: () => Date;
}

export type AnswerResult =
  | { ok: true; status: InformationRequestStatus }
  | { ok: false; error: "not_found" | "already_answered" | "empty" | "attachments" | "platform"; reason?: string };

/**
 * Staff answer a payer's information request: text and/or attachments (the prior-authorization
 * upload rules: PDF/JPEG/PNG by their bytes, 5 files, 10 MB each, 20 MB in all), sent as a
 * Communication based on the request and about the claim. The row moves open → answered only when
 * the platform accepted it; a refusal leaves it open with the platform's words.
 */
/** The kind of submission an information request is about (undefined: no such request), to check who may answer it. */
export async function informationRequestKind(db: Db, id: string): Promise<SubmissionKind | undefined> {
  return informationRequestSubmissionKind(db, id);
}

export async function answerInformationRequest(deps: AnswerDeps, caller: Caller, input: { id: string; text: string; attachmentIds: string[] }): Promise<AnswerResult> {
  const now = deps.clock ?? (() => new Date());
  const row = await getInformationRequest(deps.db, input.id);
  if (!row) return { ok: false, error: "not_found" };
  if (row.status !== "open") return { ok: false, error: "already_answered" };
  const text = input.text.trim();
  if (!text && input.attachmentIds.length === 0) return { ok: false, error: "empty" };
  const submission = await getSubmission(deps.db, row.submissionId);
  if (!submission) return { ok: false, error: "not_found" };
  const attachable = await attachableIds(deps.db, input.attachmentIds, caller.userId, submission.id);
  if (!attachable.ok || checkSet(attachable.rows.map((r) => r.size))) return { ok: false, error: "attachments" };
  const files = await attachmentsWithData(deps.db, input.attachmentIds);
  const communication = buildCommunication({
    id: randomUUID(),
    requestId: row.platformRequestId,
    // Named by the payer's identifier, as the exchange requires (an id-only basedOn is refused: BV-90005).
    ...requestIdentifierOf(row.raw),
    about: {
      ...(submission.platformId ? { platformId: submission.platformId } : {}),
      ...(submission.identifierValue ? { identifier: { ...(submission.identifierSystem ? { system: submission.identifierSystem } : {}), value: submission.identifierValue } } : {}),
    },
    providerOrgId: deps.providerOrgId,
    ...(submission.insurerId ? { recipientOrgId: submission.insurerId } : {}),
    text,
    attachments: files.map((f) => ({ contentType: f.contentType, data: f.data, title: f.fileName, creation: f.createdAt })),
    sent: now(),
  });
  // The stored copy keeps no attachment bytes (they stay in `attachments`, linked to the submission).
  const stored = JSON.parse(JSON.stringify({ ...communication, payload: communication.payload?.map((p) => (p.contentAttachment ? { contentAttachment: { ...p.contentAttachment, data: undefined } } : p)) })) as Record<string, unknown>;
  // Written ahead of sending: the payer's acknowledgement may be polled before the send returns,
  // and it is matched by this Communication's id (acknowledgementInbound).
  await markInformationRequestSending(deps.db, row.id, stored);
  let sent;
  try {
    sent = await (await portOf(deps.port, submission.facilityId)).sendCommunication(communication, { requestId: caller.requestId });
  } catch (error) {
    await clearInformationRequestSending(deps.db, row.id);
    await audit(deps.db, { actor: caller.actor, action: "information_request.answer", target: { type: "information_request", id: row.id }, outcome: "failure", requestId: caller.requestId, ip: caller.ip });
    return { ok: false, error: "platform", ...(error instanceof PlatformError ? { reason: error.resolution ?? error.message } : {}) };
  }
  const at = now();
  await deps.db.transaction(async (tx) => {
    // Already acknowledged (the acknowledgement overtook this answer's commit): it stays so.
    const updated = await markInformationRequestAnswered(tx, row.id, {
      text: text || null,
      attachmentIds: input.attachmentIds,
      communication: stored,
      communicationId: communication.id!,
      answeredAt: at,
      answeredBy: caller.userId,
      answerRequestId: sent.requestId,
    });
    if (!updated) return;
    if (input.attachmentIds.length > 0) {
      await tx.update(attachments).set({ submissionId: submission.id }).where(and(inArray(attachments.id, input.attachmentIds), isNull(attachments.submissionId)));
    }
    await noteOnTimeline(tx, submission, { kind: INFORMATION_REQUEST_EVENT, note: "informationAnswered", source: "user", requestId: sent.requestId, payload: { informationRequestId: row.id, state: "answered" } }, at);
  });
  await audit(deps.db, {
    actor: caller.actor,
    action: "information_request.answer",
    target: { type: "information_request", id: row.id },
    outcome: "success",
    requestId: caller.requestId,
    ip: caller.ip,
    details: { submissionId: submission.id, attachments: input.attachmentIds.length },
  });
  return { ok: true, status: "answered" };
}

/** A row of the queue as the page shows it: the owner's row, the patient's name joined, overdue said. */
export type InformationRequestRow = Omit<InformationRequestQueueRow, "givenName" | "familyName"> & {
  overdue: boolean;
  patientName: string | null;
};

/** Open past its due date. */
export function isOverdue(row: { status: InformationRequestStatus; dueAt: Date | null }, now: Date): boolean {
  return row.status === "open" && row.dueAt !== null && row.dueAt.getTime() < now.getTime();
}

export const QUEUE_FILTERS = INFORMATION_REQUEST_FILTERS;
export type QueueFilter = InformationRequestFilter;

/**
 * The "Information requested" work queue: open ones first, soonest due first (overdue on top);
 * `kinds` limits it to what the caller may open (front desk: authorizations only).
 */
export async function listInformationRequests(db: Db, options: { filter?: QueueFilter; kinds: readonly SubmissionKind[]; submissionId?: string; now?: Date; limit?: number }): Promise<InformationRequestRow[]> {
  const now = options.now ?? new Date();
  const filter = options.filter ?? "open";
  if (options.kinds.length === 0) return [];
  const rows = await informationRequestQueue(db, { filter, kinds: options.kinds, ...(options.submissionId ? { submissionId: options.submissionId } : {}), now, limit: options.limit ?? 200 });
  return rows.map(({ givenName, familyName, ...r }) => ({ ...r, patientName: givenName ? `${givenName} ${familyName ?? ""}`.trim() : null, overdue: isOverdue(r, now) }));
}

/** Counts for the queue's tabs and the navigation badge. */
export async function countInformationRequests(db: Db, kinds: readonly SubmissionKind[], now: Date = new Date()): Promise<{ open: number; overdue: number }> {
  if (kinds.length === 0) return { open: 0, overdue: 0 };
  return openInformationRequestCounts(db, kinds, now);
}

/** The payer's identifier of a stored CommunicationRequest (as received), when it has one. */
function requestIdentifierOf(raw: Record<string, unknown>): { requestIdentifier?: { system?: string; value: string } } {
  try {
    const identifier = readCommunicationRequest(raw).view.identifier;
    return identifier ? { requestIdentifier: identifier } : {};
  } catch (error) {
    if (isFhirReadError(error)) return {};
    throw error;
  }
}
