import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { authSessions, users } from "@/lib/db";
import type { Role } from "./roles";

import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "./session-limits";

export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS };
/** last_seen_at is written at most this often, so ordinary page loads do not all write. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  roles: Role[];
  sessionId: string;
  /** A temporary or published password: the user must change it before anything else (decision 102). */
  mustChangePassword: boolean;
}

export async function createSession(
  db: Db,
  userId: string,
  context: { ip?: string; userAgent?: string },
  now = new Date(),
): Promise<{ id: string; expiresAt: Date }> {
  const id = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  await db.insert(authSessions).values({
    id,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: context.ip ?? null,
    userAgent: context.userAgent?.slice(0, 300) ?? null,
  });
  return { id, expiresAt };
}

export type SessionCheck =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "unknown" | "ended" | "expired" | "idle" | "disabled" };

/**
 * Checks a session on every authenticated request and records the activity. The idle and
 * absolute limits are enforced here, on the server, whatever the cookie says.
 */
export async function checkSession(db: Db, sessionId: string, now = new Date()): Promise<SessionCheck> {
  const [row] = await db
    .select({ session: authSessions, user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(eq(authSessions.id, sessionId));
  if (!row) return { ok: false, reason: "unknown" };
  const { session, user } = row;
  if (session.endedAt) return { ok: false, reason: "ended" };
  let reason: "expired" | "idle" | "disabled" | undefined;
  if (user.disabledAt) reason = "disabled";
  else if (now >= session.expiresAt) reason = "expired";
  else if (now.getTime() - session.lastSeenAt.getTime() > SESSION_IDLE_MS) reason = "idle";
  if (reason) {
    await endSession(db, sessionId, reason, now);
    return { ok: false, reason };
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(authSessions).set({ lastSeenAt: now }).where(eq(authSessions.id, sessionId));
  }
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, roles: user.roles, sessionId, mustChangePassword: user.mustChangePassword },
  };
}

export async function endSession(db: Db, sessionId: string, reason: string, now = new Date()): Promise<boolean> {
  const ended = await db
    .update(authSessions)
    .set({ endedAt: now, endReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.endedAt)))
    .returning({ id: authSessions.id });
  return ended.length > 0;
}
