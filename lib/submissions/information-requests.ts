import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { informationRequests, type Db, type Tx } from "@/lib/db";

/*
 * A payer's request for information about a submission, as its owner keeps it (docs/decisions/128):
 * recorded when received, found again by the acknowledgement, marked as its answer goes out and
 * comes back. lib/information-requests runs the flow (the platform, the timeline notes, the audit)
 * and asks these for the table; the guards of each update are the races it settles.
 */

/** A stored information request, every column. */
export type InformationRequest = typeof informationRequests.$inferSelect;

/** What a received request is stored with. */
export interface ReceivedInformationRequest {
  platformRequestId: string;
  submissionId: string;
  asks: string[];
  attachmentTypes: string[];
  dueAt: Date | null;
  receivedAt: Date;
  /** The CommunicationRequest as received. */
  raw: Record<string, unknown>;
}

/** Stores a received request once per platform id; its id, or undefined when it was already stored (deliveries repeat). */
export async function recordInformationRequest(db: Db | Tx, request: ReceivedInformationRequest): Promise<string | undefined> {
  const [row] = await db
    .insert(informationRequests)
    .values(request)
    .onConflictDoNothing({ target: informationRequests.platformRequestId })
    .returning({ id: informationRequests.id });
  return row?.id;
}

/**
 * The request a payer's acknowledgement is about: ours answered it with one of `communicationIds`,
 * or it is one of `requestIds` and no longer open. The first found, or undefined.
 */
export async function informationRequestAcknowledged(db: Db | Tx, refs: { communicationIds: readonly string[]; requestIds: readonly string[] }): Promise<InformationRequest | undefined> {
  const { communicationIds, requestIds } = refs;
  const [match] = await db
    .select()
    .from(informationRequests)
    .where(
      or(
        ...(communicationIds.length ? [inArray(sql<string>`${informationRequests.communication}->>'id'`, [...communicationIds])] : []),
        ...(requestIds.length ? [and(inArray(informationRequests.platformRequestId, [...requestIds]), ne(informationRequests.status, "open"))] : []),
      ),
    )
    .limit(1);
  return match;
}

/** Marks a request acknowledged with the payer's acknowledgement; false when no such row. */
export async function markInformationRequestAcknowledged(db: Db | Tx, id: string, at: Date, acknowledgement: Record<string, unknown>): Promise<boolean> {
  const [updated] = await db
    .update(informationRequests)
    .set({ status: "acknowledged", acknowledgedAt: at, acknowledgement })
    .where(eq(informationRequests.id, id))
    .returning({ id: informationRequests.id });
  return updated !== undefined;
}

/** One request by id (undefined: no such request). */
export async function getInformationRequest(db: Db | Tx, id: string): Promise<InformationRequest | undefined> {
  const [row] = await db.select().from(informationRequests).where(eq(informationRequests.id, id));
  return row;
}

/**
 * Keeps the answer about to be sent on a request still open: written ahead of sending, because the
 * payer's acknowledgement may arrive before the send returns and is matched by this Communication's id.
 */
export async function markInformationRequestSending(db: Db | Tx, id: string, communication: Record<string, unknown>): Promise<void> {
  await db.update(informationRequests).set({ communication }).where(and(eq(informationRequests.id, id), eq(informationRequests.status, "open")));
}

/** Forgets the answer that was not sent, unless the request was answered or left open meanwhile. */
export async function clearInformationRequestSending(db: Db | Tx, id: string): Promise<void> {
  await db.update(informationRequests).set({ communication: null }).where(and(eq(informationRequests.id, id), eq(informationRequests.status, "open"), isNull(informationRequests.answeredAt)));
}

/** The answer the platform accepted. */
export interface InformationRequestAnswer {
  text: string | null;
  attachmentIds: string[];
  /** The Communication as sent (no attachment bytes); its id is the one marked as sending. */
  communication: Record<string, unknown>;
  communicationId: string;
  answeredAt: Date;
  /** The user who answered (undefined: the column is left as it is). */
  answeredBy: string | undefined;
  answerRequestId: string;
}

/**
 * Marks a request answered — acknowledged stays acknowledged (the acknowledgement overtook the
 * answer's commit) — only if not answered yet and still carrying this answer's Communication.
 * False when the guard refused it.
 */
export async function markInformationRequestAnswered(db: Db | Tx, id: string, answer: InformationRequestAnswer): Promise<boolean> {
  const [updated] = await db
    .update(informationRequests)
    .set({
      status: sql`case when ${informationRequests.status} = 'acknowledged' then 'acknowledged' else 'answered' end`,
      answerText: answer.text,
      answerAttachmentIds: answer.attachmentIds,
      communication: answer.communication,
      answeredAt: answer.answeredAt,
      answeredBy: answer.answeredBy,
      answerRequestId: answer.answerRequestId,
    })
    .where(and(eq(informationRequests.id, id), isNull(informationRequests.answeredAt), sql`${informationRequests.communication}->>'id' = ${answer.communicationId}`))
    .returning({ id: informationRequests.id });
  return updated !== undefined;
}
