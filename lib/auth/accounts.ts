import { randomInt } from "node:crypto";
import { isUuid } from "@/lib/ids";
import { and, arrayContains, asc, eq, isNull, max, ne, sql } from "drizzle-orm";
import { audit, type Caller } from "@/lib/audit";
import type { Db, Tx } from "@/lib/db";
import { authSessions, signInFailures, users } from "@/lib/db";
import { hashPassword, passwordProblem, verifyPassword } from "./password";
import type { Role } from "./roles";
import { isRole } from "./roles";
import { UserInputError, normaliseEmail } from "./users";

/*
 * Running accounts (decision 102): the one place that changes a user's roles, password,
 * lock and disabled state. Screens (lib/auth/actions.ts) and the admin CLI (lib/admin) both call
 * these; each change and its audit row are one transaction, and the rules hold for both callers:
 * the last active administrator is never disabled or stripped of the role, and an administrator
 * cannot disable themself or take away their own administrator role.
 */

/** A user named by id (screens) or email (the CLI). */
export type UserRef = { id: string } | { email: string };

export type AccountState = "active" | "disabled" | "locked";

export interface UserAccount {
  id: string;
  email: string;
  name: string;
  roles: Role[];
  state: AccountState;
  lockedUntil: Date | null;
  disabledAt: Date | null;
  mustChangePassword: boolean;
  /** The last successful sign-in (its session's start); null when never signed in or not kept. */
  lastSignInAt: Date | null;
  createdAt: Date;
}


export function accountState(user: { disabledAt: Date | null; lockedUntil: Date | null }, now = new Date()): AccountState {
  if (user.disabledAt) return "disabled";
  if (user.lockedUntil && user.lockedUntil > now) return "locked";
  return "active";
}

/** Every user with roles, state and last sign-in, by email. */
export async function listUserAccounts(db: Db, now = new Date()): Promise<UserAccount[]> {
  const lastSignIn = db
    .select({ userId: authSessions.userId, at: max(authSessions.createdAt).as("last_sign_in_at") })
    .from(authSessions)
    .groupBy(authSessions.userId)
    .as("last_sign_in");
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      roles: users.roles,
      disabledAt: users.disabledAt,
      lockedUntil: users.lockedUntil,
      mustChangePassword: users.mustChangePassword,
      createdAt: users.createdAt,
      lastSignInAt: lastSignIn.at,
    })
    .from(users)
    .leftJoin(lastSignIn, eq(lastSignIn.userId, users.id))
    .orderBy(asc(users.email));
  return rows.map((r) => ({ ...r, lastSignInAt: r.lastSignInAt ? new Date(r.lastSignInAt) : null, state: accountState(r, now) }));
}

/** One user's account, or undefined. */
export async function getUserAccount(db: Db, id: string, now = new Date()): Promise<UserAccount | undefined> {
  if (!isUuid(id)) return undefined;
  return (await listUserAccounts(db, now)).find((u) => u.id === id);
}

type UserRow = typeof users.$inferSelect;

/** The user's row, locked for this transaction; a clear refusal when there is none. */
async function lockUser(tx: Tx, ref: UserRef): Promise<UserRow> {
  const where = "id" in ref ? (isUuid(ref.id) ? eq(users.id, ref.id) : sql`false`) : eq(users.email, normaliseEmail(ref.email));
  const [row] = await tx.select().from(users).where(where).for("update");
  if (!row) throw new UserInputError("id" in ref ? "No such user." : `No user with email ${normaliseEmail(ref.email)}.`, "notFound");
  return row;
}

/** Other active administrators than `userId`, their rows locked (two removals at once cannot both pass). */
async function otherActiveAdmins(tx: Tx, userId: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(arrayContains(users.roles, ["admin"]), isNull(users.disabledAt), ne(users.id, userId)))
    .for("update");
  return rows.length;
}

async function endSessions(tx: Tx, userId: string, reason: string, now: Date, keep?: string) {
  await tx
    .update(authSessions)
    .set({ endedAt: now, endReason: reason })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.endedAt), keep ? ne(authSessions.id, keep) : undefined));
}

const entry = (caller: Caller, action: string, target: UserRow, details: Record<string, unknown>, at: Date) => ({
  actor: caller.actor,
  action,
  target: { type: "user", id: target.id },
  outcome: "success" as const,
  requestId: caller.requestId,
  ip: caller.ip,
  details: { email: target.email, ...details },
  at,
});

/**
 * Gives a user a new set of roles. Refused: no role or an unknown one; taking the administrator
 * role from the last active administrator; an administrator taking it from themself.
 */
export async function setUserRoles(db: Db, caller: Caller, ref: UserRef, roles: readonly string[], now = new Date()) {
  const wanted = [...new Set(roles)];
  if (wanted.length === 0) throw new UserInputError("Give at least one role.", "invalid");
  const unknown = wanted.filter((r) => !isRole(r));
  if (unknown.length > 0) throw new UserInputError(`Unknown role ${unknown.map((r) => `"${r}"`).join(", ")}; use front_desk, billing, manager or admin.`, "invalid");
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, ref);
    const next = wanted as Role[];
    if (user.roles.includes("admin") && !next.includes("admin")) {
      if (caller.userId === user.id) throw new UserInputError("You cannot take the administrator role from yourself: another administrator must do it.", "selfLockout");
      if (!user.disabledAt && (await otherActiveAdmins(tx, user.id)) === 0) throw new UserInputError(`${user.email} is the last active administrator: make another user an administrator first.`, "lastAdmin");
    }
    await tx.update(users).set({ roles: next, updatedAt: now }).where(eq(users.id, user.id));
    await audit(tx, entry(caller, "user.set_roles", user, { from: user.roles, to: next }, now));
    return { id: user.id, email: user.email, roles: next };
  });
}

/**
 * Disables a user (their sessions end at once) or enables them again. Refused: disabling
 * yourself, or the last active administrator.
 */
export async function setAccountDisabled(db: Db, caller: Caller, ref: UserRef, disabled: boolean, now = new Date()) {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, ref);
    if (disabled) {
      if (caller.userId === user.id) throw new UserInputError("You cannot disable your own account: another administrator must do it.", "selfLockout");
      if (user.roles.includes("admin") && !user.disabledAt && (await otherActiveAdmins(tx, user.id)) === 0) {
        throw new UserInputError(`${user.email} is the last active administrator: make another user an administrator first.`, "lastAdmin");
      }
    }
    await tx
      .update(users)
      .set({ disabledAt: disabled ? (user.disabledAt ?? now) : null, updatedAt: now })
      .where(eq(users.id, user.id));
    if (disabled) await endSessions(tx, user.id, "disabled", now);
    await audit(tx, entry(caller, disabled ? "user.disable" : "user.enable", user, { wasDisabled: Boolean(user.disabledAt) }, now));
    return { id: user.id, email: user.email, disabled };
  });
}

/** Lifts a lockout and forgets the failed sign-ins that led to it. */
export async function unlockUser(db: Db, caller: Caller, ref: UserRef, now = new Date()) {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, ref);
    const wasLocked = accountState(user, now) === "locked";
    await tx.update(users).set({ lockedUntil: null, updatedAt: now }).where(eq(users.id, user.id));
    await tx.delete(signInFailures).where(eq(signInFailures.userId, user.id));
    await audit(tx, entry(caller, "user.unlock", user, { wasLocked }, now));
    return { id: user.id, email: user.email, wasLocked };
  });
}

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand. */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A temporary password: four groups of four (about 79 bits), e.g. `k7mq-2xtp-vb9n-wr4e`. */
export function temporaryPassword(): string {
  return Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")).join("-");
}

/**
 * Gives a user a temporary password, shown once to the administrator, that must be changed at the
 * next sign-in (decision 102). The old password stops working at once, every session of the user
 * ends, and a lockout is lifted. Administrators reset other users; their own goes through
 * "Change my password". `password` lets the CLI set the temporary password from standard input.
 */
export async function resetUserPassword(db: Db, caller: Caller, ref: UserRef, options: { password?: string; now?: Date } = {}) {
  const now = options.now ?? new Date();
  const password = options.password ?? temporaryPassword();
  const problem = passwordProblem(password);
  if (problem) throw new UserInputError(`The password ${problem}.`, "tooShort");
  const hash = await hashPassword(password);
  const result = await db.transaction(async (tx) => {
    const user = await lockUser(tx, ref);
    if (caller.userId === user.id) throw new UserInputError("Use “Change my password” for your own account.", "selfReset");
    await tx.update(users).set({ passwordHash: hash, mustChangePassword: true, lockedUntil: null, updatedAt: now }).where(eq(users.id, user.id));
    await tx.delete(signInFailures).where(eq(signInFailures.userId, user.id));
    await endSessions(tx, user.id, "password_reset", now);
    await audit(tx, entry(caller, "user.reset_password", user, { temporary: true, generated: options.password === undefined }, now));
    return { id: user.id, email: user.email };
  });
  return { ...result, temporaryPassword: password };
}

/**
 * "Change my password": the current password, checked with argon2, and a new one under the policy.
 * The user's other sessions end (the one in use stays), and a pending change is done. A wrong
 * current password is refused and audited as a failure.
 */
export async function changeOwnPassword(db: Db, caller: Caller & { userId: string }, input: { currentPassword: string; newPassword: string; sessionId?: string }, now = new Date()) {
  const [user] = await db.select().from(users).where(eq(users.id, caller.userId));
  if (!user) throw new UserInputError("No such user.", "notFound");
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await audit(db, { ...entry(caller, "user.change_password", user, { reason: "wrong_current_password" }, now), outcome: "failure" });
    throw new UserInputError("The current password is not right.", "wrongPassword");
  }
  if (input.newPassword === input.currentPassword) throw new UserInputError("The new password must differ from the current one.", "sameAsCurrent");
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new UserInputError(`The password ${problem}.`, input.newPassword.length > 256 ? "tooLong" : "tooShort");
  const hash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash: hash, mustChangePassword: false, updatedAt: now }).where(eq(users.id, user.id));
    await endSessions(tx, user.id, "password_changed", now, input.sessionId);
    await audit(tx, entry(caller, "user.change_password", user, { wasRequired: user.mustChangePassword }, now));
  });
  return { id: user.id, email: user.email };
}

/**
 * Outside the bundled sandbox the demo users' password is published (README, `npm start`): an
 * account signing in with it must change it first (decision 102). Called on a successful sign-in.
 */
export async function requireChangeOfPublishedPassword(db: Db, userId: string, now = new Date()): Promise<boolean> {
  const marked = await db
    .update(users)
    .set({ mustChangePassword: true, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.mustChangePassword, false)))
    .returning({ id: users.id });
  return marked.length > 0;
}
