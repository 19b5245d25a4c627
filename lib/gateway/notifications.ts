import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { gatewayNotificationPositions } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { newestTimelineEventId, timelineEventsAfter } from "@/lib/submissions";
import { GATEWAY_CHANNEL, createdByToken } from "./submissions";

/*
 * The notification agent: status changes of authorization requests and claims, read from
 * `submission_events` (the permanent timeline; `live_events` is pruned after a day). Event ids
 * increase, so an event id is the cursor.
 *
 * Each token's acknowledged position is kept in `gateway_notification_positions` (it only moves
 * forward); `list` without a cursor starts there. The audit log still records every
 * acknowledgement, but is no longer where the position is read from (docs/decisions/026).
 */

export const ACK_ACTION = "gateway.notification.acknowledge";

export const listDataSchema = z.strictObject({
  /** Events after this event id; default: after the token's acknowledged position. */
  cursor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  kind: z.enum(["claim", "authorization"]).optional(),
  /** Only submissions this token created. */
  mine: z.boolean().default(false),
});

export const acknowledgeDataSchema = z.strictObject({
  upTo: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** The largest event id this token acknowledged (0 when none). */
export async function acknowledgedPosition(db: Db, tokenId: string): Promise<number> {
  const [row] = await db
    .select({ upTo: gatewayNotificationPositions.acknowledgedUpTo })
    .from(gatewayNotificationPositions)
    .where(eq(gatewayNotificationPositions.tokenId, tokenId));
  return row?.upTo ?? 0;
}

export async function listNotifications(db: Db, tokenId: string, data: z.infer<typeof listDataSchema>) {
  const acknowledgedUpTo = await acknowledgedPosition(db, tokenId);
  const after = data.cursor ?? acknowledgedUpTo;
  const rows = await timelineEventsAfter(db, {
    after,
    ...(data.kind ? { kind: data.kind === "claim" ? "claim" : "preauthorization" } : {}),
    ...(data.mine ? { madeBy: { channel: GATEWAY_CHANNEL, createdBy: createdByToken(tokenId) } } : {}),
    limit: data.limit + 1,
  });
  const page = rows.slice(0, data.limit);
  return {
    events: page.map((e) => ({
      eventId: e.id,
      at: e.at.toISOString(),
      submissionId: e.submissionId,
      kind: e.kind === "claim" ? "claim" : "authorization",
      from: e.from,
      to: e.to,
      source: e.source,
      ...(typeof e.detail?.code === "string" ? { code: e.detail.code } : {}),
    })),
    /** Pass as `cursor` for the next page, or acknowledge up to it. */
    cursor: page.length ? page[page.length - 1]!.id : after,
    hasMore: rows.length > data.limit,
    acknowledgedUpTo,
  };
}

/** Moves the token's acknowledged position forward (never back). The caller's audit entry stores it. */
export async function acknowledgeNotifications(db: Db, tokenId: string, data: z.infer<typeof acknowledgeDataSchema>) {
  const newest = await newestTimelineEventId(db);
  if (data.upTo > newest) {
    throw new AppError("unprocessable", `upTo ${data.upTo} is after the newest event (${newest}).`, { reason: "invalid_data", fields: [{ path: "data.upTo", message: `at most ${newest}` }] });
  }
  const previous = await acknowledgedPosition(db, tokenId);
  // Forward only, also against a concurrent acknowledgement of the same token.
  const [row] = await db
    .insert(gatewayNotificationPositions)
    .values({ tokenId, acknowledgedUpTo: data.upTo })
    .onConflictDoUpdate({
      target: gatewayNotificationPositions.tokenId,
      set: { acknowledgedUpTo: sql`greatest(${gatewayNotificationPositions.acknowledgedUpTo}, excluded.acknowledged_up_to)`, updatedAt: sql`now()` },
    })
    .returning({ upTo: gatewayNotificationPositions.acknowledgedUpTo });
  return { previous, acknowledgedUpTo: row?.upTo ?? Math.max(previous, data.upTo) };
}
