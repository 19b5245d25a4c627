import { and, count, eq, gt, isNull, lte, or } from "drizzle-orm";
import { actorOf, audit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { signInFailures, users } from "@/lib/db";
import { requireChangeOfPublishedPassword } from "./accounts";
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
  /**
   * The demo users' published password, when the portal does not run against the bundled sandbox:
   * an account signing in with it must change it first (decision 102). Unset in the sandbox.
   */
  publishedPassword?: string;
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
      actor: user ? actorOf(user) : { kind: "anonymous", label: email.slice(0, 200) },
      action: "auth.sign_in",
      outcome: "failure",
      details: { reason },
    });
    metrics().signInFailures.inc({ reason });
    return { ok: false, reason };
  }

  const actor = actorOf(user);
  const slot = await reservePasswordCheck(db, user.id, now);
  if (!slot.ok) {
    await burnVerification(input.password);
    await audit(db, { ...base, actor, action: "auth.sign_in", outcome: "denied", details: { reason: "locked", lockedUntil: slot.lockedUntil.toISOString() } });
    if (slot.lockedNow) {
      await audit(db, { ...base, actor, action: "auth.lockout", outcome: "success", target: { type: "user", id: user.id }, details: { failures: slot.failures, lockedUntil: slot.lockedUntil.toISOString() } });
    }
    metrics().signInFailures.inc({ reason: "locked" });
    return { ok: false, reason: "locked" };
  }

  if (!(await verifyPassword(user.passwordHash, input.password))) {
    // The failure was recorded when the check was reserved; `passwordChecked` marks real checks.
    const failures = slot.failuresBefore + 1;
    await audit(db, { ...base, actor, action: "auth.sign_in", outcome: "failure", details: { reason: "bad_password", recentFailures: failures, passwordChecked: true } });
    if (failures >= LOCKOUT_THRESHOLD) {
      const lockedUntil = new Date(now.getTime() + LOCKOUT_DURATION_MS);
      // A concurrent attempt may have found the threshold reached and locked the account already.
      const [locked] = await db
        .update(users)
        .set({ lockedUntil, updatedAt: now })
        .where(and(eq(users.id, user.id), or(isNull(users.lockedUntil), lte(users.lockedUntil, now))))
        .returning({ id: users.id });
      if (locked) {
        await audit(db, { ...base, actor, action: "auth.lockout", outcome: "success", target: { type: "user", id: user.id }, details: { failures, lockedUntil: lockedUntil.toISOString() } });
        metrics().lockouts.inc();
        log("auth").warn({ actorId: user.id, failures }, "account locked after repeated failed sign-ins");
      }
    }
    metrics().signInFailures.inc({ reason: "bad_password" });
    return { ok: false, reason: "bad_password" };
  }

  await db.delete(signInFailures).where(eq(signInFailures.userId, user.id));
  let mustChangePassword = user.mustChangePassword;
  if (ctx.publishedPassword !== undefined && input.password === ctx.publishedPassword) {
    if (await requireChangeOfPublishedPassword(db, user.id, now)) {
      await audit(db, { ...base, actor, action: "user.require_password_change", outcome: "success", target: { type: "user", id: user.id }, details: { reason: "published_password" } });
    }
    mustChangePassword = true;
  }
  const session = await createSession(db, user.id, ctx, now);
  await audit(db, { ...base, actor, action: "auth.sign_in", outcome: "success", details: { session: session.id.slice(0, 8), passwordChecked: true } });
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, roles: user.roles, sessionId: session.id, mustChangePassword },
  };
}

type Reservation =
  | { ok: true; failuresBefore: number }
  | { ok: false; lockedUntil: Date; lockedNow: boolean; failures: number };

/**
 * Reserves one password check on an account, atomically: under a lock on the user's row, the
 * account's lock and its failures in the window are read, and — when another check is allowed —
 * this attempt is recorded as a failure *before* the (slow) password check runs. Concurrent
 * attempts queue on the row lock and each sees the ones before it, so however many arrive at
 * once, at most LOCKOUT_THRESHOLD passwords are checked per window; a correct password removes
 * the failures again. The attempt that finds the threshold reached locks the account.
 */
async function reservePasswordCheck(db: Db, userId: string, now: Date): Promise<Reservation> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ lockedUntil: users.lockedUntil }).from(users).where(eq(users.id, userId)).for("update");
    const lockedUntil = row?.lockedUntil ?? null;
    if (lockedUntil && lockedUntil > now) return { ok: false, lockedUntil, lockedNow: false, failures: LOCKOUT_THRESHOLD };
    // Failures before the end of an earlier lock do not count again.
    const windowStart = new Date(Math.max(now.getTime() - LOCKOUT_WINDOW_MS, lockedUntil?.getTime() ?? 0));
    const [{ failures } = { failures: 0 }] = await tx
      .select({ failures: count() })
      .from(signInFailures)
      .where(and(eq(signInFailures.userId, userId), gt(signInFailures.at, windowStart)));
    if (failures >= LOCKOUT_THRESHOLD) {
      const until = new Date(now.getTime() + LOCKOUT_DURATION_MS);
      await tx.update(users).set({ lockedUntil: until, updatedAt: now }).where(eq(users.id, userId));
      return { ok: false, lockedUntil: until, lockedNow: true, failures };
    }
    await tx.insert(signInFailures).values({ userId, at: now });
    return { ok: true, failuresBefore: failures };
  });
}
