import { and, desc, eq, inArray } from "drizzle-orm";
import { isUuid } from "@/lib/ids";
import { inboxMessages, type Db, type InboxStatus, type Tx } from "@/lib/db";
import type { InboxRow } from "./route";

/** What billing sees of a kept message ("Received, not matched"): never the body in a list. */
export type InboxListItem = Pick<InboxRow, "id" | "messageId" | "source" | "event" | "summary" | "receivedAt" | "status" | "attempts" | "lastError" | "facilityId">;

const OPEN: InboxStatus[] = ["unmatched", "failed"];

/** Messages that matched nothing or could not be handled, newest first (received ones still being retried included). */
export async function listOpenMessages(db: Db, options: { limit?: number; statuses?: InboxStatus[] } = {}): Promise<InboxListItem[]> {
  return db
    .select({
      id: inboxMessages.id,
      messageId: inboxMessages.messageId,
      source: inboxMessages.source,
      event: inboxMessages.event,
      summary: inboxMessages.summary,
      receivedAt: inboxMessages.receivedAt,
      status: inboxMessages.status,
      attempts: inboxMessages.attempts,
      lastError: inboxMessages.lastError,
      facilityId: inboxMessages.facilityId,
    })
    .from(inboxMessages)
    .where(inArray(inboxMessages.status, options.statuses ?? OPEN))
    .orderBy(desc(inboxMessages.receivedAt))
    .limit(Math.min(options.limit ?? 200, 500));
}

/** One kept message, body included (the body is patient data: the caller audits the view). */
export async function getInboxMessage(db: Db | Tx, id: string): Promise<InboxRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(inboxMessages).where(eq(inboxMessages.id, id));
  return row;
}

export class InboxStateError extends Error {
  override name = "InboxStateError";
  constructor(readonly id: string) {
    super("This message is no longer waiting for a decision (someone settled it already).");
  }
}

/** Dismissed by a person with a reason; only an unmatched or failed message. Returns the row as it was. */
export async function dismissMessage(db: Db | Tx, id: string, by: { userId: string; reason: string; at?: Date }): Promise<InboxRow> {
  const at = by.at ?? new Date();
  const [row] = await db
    .update(inboxMessages)
    .set({ status: "dismissed", settledBy: by.userId, settledAt: at, settledReason: by.reason, nextAttemptAt: null, updatedAt: at })
    .where(and(eq(inboxMessages.id, id), inArray(inboxMessages.status, OPEN)))
    .returning();
  if (!row) throw new InboxStateError(id);
  return row;
}

/** Matched by a person to a submission and routed there (the caller applies it in the same transaction). */
export async function markMatched(db: Db | Tx, id: string, by: { userId: string; submissionId: string; at?: Date }): Promise<InboxRow> {
  const at = by.at ?? new Date();
  const [row] = await db
    .update(inboxMessages)
    .set({ status: "applied", submissionId: by.submissionId, settledBy: by.userId, settledAt: at, settledReason: "matched", nextAttemptAt: null, lastError: null, updatedAt: at })
    .where(and(eq(inboxMessages.id, id), inArray(inboxMessages.status, OPEN)))
    .returning();
  if (!row) throw new InboxStateError(id);
  return row;
}

/** Marks a message routed by its receiver at once (a webhook applied inline): applied, unmatched or failed. */
export async function recordRouted(db: Db | Tx, id: string, outcome: { status: "applied" | "unmatched" | "failed"; reason?: string; submissionId?: string; at?: Date }): Promise<void> {
  const at = outcome.at ?? new Date();
  await db
    .update(inboxMessages)
    .set({ status: outcome.status, lastError: outcome.reason ?? null, nextAttemptAt: null, attempts: 1, ...(outcome.submissionId ? { submissionId: outcome.submissionId } : {}), updatedAt: at })
    .where(and(eq(inboxMessages.id, id), inArray(inboxMessages.status, ["received", ...OPEN])));
}
