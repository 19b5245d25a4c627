import { and, count, eq, gt } from "drizzle-orm";
import { audit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { signInFailures, users } from "@/lib/db/schema";
import { burnVerification, verifyPassword } from "./password";
import { createSession, type SessionUser } from "./sessions";
import { normaliseEmail } from "./users";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";

/** 10 failed sign-ins on one account within 15 minutes lock it for 15 minutes. */
export const LOCKOUT_THRESHOLD = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_DURATION_MS = 15 * 60 * 1000;

export interface SignInContext {
  ip?: string;
  userAgent?: string;
  requestId?: string;
  now?: Date;
}

export type SignInResult =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "unknown_email" | "disabled" | "locked" | "bad_password" };

/**
 * Checks an email and password, applies the lockout rule, audits the attempt and, on success,
 * opens a server-side session. Callers show one generic message for every failure.
 */
export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string },
  ctx: SignInContext = {},
): Promise<SignInResult> {
  const now = ctx.now ?? new Date();
  const email = normaliseEmail(input.email);
  const base = { requestId: ctx.requestId, ip: ctx.ip, at: now };
  const [user] = await db.select().from(users).where(eq(users.email, email));

  if (!user || user.disabledAt) {
    await burnVerification(input.password);
    const reason = user ? "disabled" : "unknown_email";
    await audit(db, {
      ...base,
      actor: user ? { kind: "user", id: user.id, email: user.email, roles: user.roles } : { kind: "anonymous", label: email.slice(0, 200) },
      action: "auth.sign_in",
      outcome: "failure",
      details: { reason },
    });
    metrics().signInFailures.inc({ reason });
    return { ok: false, reason };
  }

  const actor = { kind: "user", id: user.id, email: user.email, roles: user.roles } as const;
  if (user.lockedUntil && user.lockedUntil > now) {
    await burnVerification(input.password);
    await audit(db, { ...base, actor, action: "auth.sign_in", outcome: "denied", details: { reason: "locked", lockedUntil: user.lockedUntil.toISOString() } });
    metrics().signInFailures.inc({ reason: "locked" });
    return { ok: false, reason: "locked" };
  }

  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await db.insert(signInFailures).values({ userId: user.id, at: now });
    // Failures before the end of an earlier lock do not count again.
    const windowStart = new Date(Math.max(now.getTime() - LOCKOUT_WINDOW_MS, user.lockedUntil?.getTime() ?? 0));
    const [{ failures } = { failures: 0 }] = await db
      .select({ failures: count() })
      .from(signInFailures)
      .where(and(eq(signInFailures.userId, user.id), gt(signInFailures.at, windowStart)));
    await audit(db, { ...base, actor, action: "auth.sign_in", outcome: "failure", details: { reason: "bad_password", recentFailures: failures } });
    if (failures >= LOCKOUT_THRESHOLD) {
      const lockedUntil = new Date(now.getTime() + LOCKOUT_DURATION_MS);
      await db.update(users).set({ lockedUntil, updatedAt: now }).where(eq(users.id, user.id));
      await audit(db, { ...base, actor, action: "auth.lockout", outcome: "success", target: { type: "user", id: user.id }, details: { failures, lockedUntil: lockedUntil.toISOString() } });
      metrics().lockouts.inc();
      log("auth").warn({ actorId: user.id, failures }, "account locked after repeated failed sign-ins");
    }
    metrics().signInFailures.inc({ reason: "bad_password" });
    return { ok: false, reason: "bad_password" };
  }

  await db.delete(signInFailures).where(eq(signInFailures.userId, user.id));
  const session = await createSession(db, user.id, ctx, now);
  await audit(db, { ...base, actor, action: "auth.sign_in", outcome: "success", details: { session: session.id.slice(0, 8) } });
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, roles: user.roles, sessionId: session.id },
  };
}
