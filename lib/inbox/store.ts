import { createHash, randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { inboxMessages, inboxPolls, type Db, type InboxSource, type InboxSummary, type Tx } from "@/lib/db";
import { metrics } from "@/lib/metrics";

/** One message as it arrived, before it is routed. */
export interface IncomingMessage {
  /** The message Bundle id or the webhook id; absent → `sha256:` of the body (same body, same message). */
  messageId?: string;
  source: InboxSource;
  facilityId?: string;
  event?: string;
  /** The message whole, as text. */
  body: string;
  summary?: InboxSummary;
  /** Known at once to be unreadable (its read error, without patient data): stored `failed`, never routed. */
  unreadable?: string;
  /** Routed at once by the caller (a webhook that applies inline): stored `received`, not due. */
  routedByCaller?: boolean;
  /** The resource itself, when the body is not a message (a REST answer, a fetched resource). */
  fetched?: string;
}

export interface StoredMessage {
  id: string;
  messageId: string;
  /** False when this message id was already stored (a repeat delivery): nothing new. */
  fresh: boolean;
  status: string;
}

export function messageIdOf(message: Pick<IncomingMessage, "messageId" | "body">): string {
  return message.messageId && message.messageId.length <= 200 ? message.messageId : `sha256:${createHash("sha256").update(message.body).digest("hex")}`;
}

/**
 * Stores messages whole, once per message id (a repeat returns the row already stored), in the
 * caller's transaction when given. New rows are `received` and due at once; an unreadable one is
 * `failed` with its reason and never due (nothing to retry: it reads the same way every time).
 */
export async function storeMessages(db: Db | Tx, messages: readonly IncomingMessage[], at: Date = new Date()): Promise<StoredMessage[]> {
  if (messages.length === 0) return [];
  const ids = messages.map((m) => messageIdOf(m));
  // One statement for the whole reply; a message id twice in one reply is one row.
  const values = new Map<string, typeof inboxMessages.$inferInsert>();
  messages.forEach((m, i) => {
    if (values.has(ids[i]!)) return;
    values.set(ids[i]!, {
      messageId: ids[i]!,
      source: m.source,
      facilityId: m.facilityId ?? null,
      event: m.event ?? null,
      body: m.body,
      summary: m.summary ?? null,
      ...(m.fetched !== undefined ? { fetched: m.fetched } : {}),
      receivedAt: at,
      status: m.unreadable ? "failed" : "received",
      lastError: m.unreadable ?? null,
      nextAttemptAt: m.unreadable ? null : m.routedByCaller ? new Date(at.getTime() + 60_000) : at,
      updatedAt: at,
    });
  });
  const inserted = await db
    .insert(inboxMessages)
    .values([...values.values()])
    .onConflictDoNothing({ target: inboxMessages.messageId })
    .returning({ id: inboxMessages.id, messageId: inboxMessages.messageId, status: inboxMessages.status });
  const fresh = new Map(inserted.map((r) => [r.messageId, r]));
  const missing = ids.filter((id) => !fresh.has(id));
  const existing = missing.length > 0 ? await db.select({ id: inboxMessages.id, messageId: inboxMessages.messageId, status: inboxMessages.status }).from(inboxMessages).where(inArray(inboxMessages.messageId, [...new Set(missing)])) : [];
  const old = new Map(existing.map((r) => [r.messageId, r]));
  const seen = new Set<string>();
  return messages.map((m, i) => {
    const messageId = ids[i]!;
    const row = fresh.get(messageId);
    const first = row !== undefined && !seen.has(messageId);
    seen.add(messageId);
    metrics().inboxReceived.inc({ source: m.source, result: first ? (m.unreadable ? "unreadable" : "stored") : "repeat" });
    const found = row ?? old.get(messageId)!;
    return { id: found.id, messageId, fresh: first, status: found.status };
  });
}

/** Adds what a `resource.available` announcement pointed to, once read (REST). */
export async function noteFetched(db: Db | Tx, id: string, fetched: string, summary: InboxSummary): Promise<void> {
  await db.update(inboxMessages).set({ fetched, summary, updatedAt: new Date() }).where(eq(inboxMessages.id, id));
}

/** Forgets a delivery the sender is asked to make again (a webhook answered non-2xx before anything was applied). */
export async function forgetMessage(db: Db | Tx, id: string): Promise<void> {
  await db.delete(inboxMessages).where(eq(inboxMessages.id, id));
}

// ---- the poll cursor ----------------------------------------------------------------------------

/**
 * The id of the poll-request `port` is to send: the one sent before whose reply was never stored
 * (the process died), else a new one. Sent again with the same ids, the exchange answers the same
 * reply (guide 6.4); only a new poll-request clears what the last one handed out.
 */
export async function pendingPollId(db: Db, port: string): Promise<string> {
  const fresh = randomUUID();
  await db.insert(inboxPolls).values({ port, requestId: fresh }).onConflictDoNothing();
  const [row] = await db.select({ requestId: inboxPolls.requestId }).from(inboxPolls).where(eq(inboxPolls.port, port));
  return row!.requestId;
}

/**
 * Stores a poll reply's messages and retires its poll-request id in ONE transaction: after this
 * commits, the next poll-request (a new id, which clears the exchange's queue) may go; before it,
 * a crash means the same request is sent again and the same reply stored.
 */
export async function storePollReply(db: Db, port: string, pollId: string, messages: readonly IncomingMessage[], at: Date = new Date()): Promise<StoredMessage[]> {
  return db.transaction(async (tx) => {
    const stored = await storeMessages(tx, messages, at);
    await tx.delete(inboxPolls).where(sql`${inboxPolls.port} = ${port} and ${inboxPolls.requestId} = ${pollId}`);
    return stored;
  });
}
