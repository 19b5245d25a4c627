import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { authSessions, users } from "@/lib/db";
import { hashPassword, passwordProblem } from "./password";
import { isRole, type Role } from "./roles";

export class UserInputError extends Error {
  override name = "UserInputError";
}

export interface NewUser {
  email: string;
  name?: string;
  roles: string[];
  password: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createUser(db: Db, input: NewUser) {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email)) throw new UserInputError(`"${input.email}" is not an email address.`);
  const roles = [...new Set(input.roles)];
  if (roles.length === 0) throw new UserInputError("Give at least one role.");
  const unknown = roles.filter((r) => !isRole(r));
  if (unknown.length > 0) {
    throw new UserInputError(
      `Unknown role ${unknown.map((r) => `"${r}"`).join(", ")}; use front_desk, billing, manager or admin.`,
    );
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new UserInputError(`The password ${problem}.`);
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing.length > 0) throw new UserInputError(`A user with email ${email} already exists.`);
  const [row] = await db
    .insert(users)
    .values({
      email,
      name: input.name?.trim() || email.split("@")[0]!,
      passwordHash: await hashPassword(input.password),
      roles: roles as Role[],
    })
    .returning({ id: users.id, email: users.email, name: users.name, roles: users.roles, createdAt: users.createdAt });
  return row!;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, normaliseEmail(email)));
  return row;
}

/** Disables the account and ends its sessions at once. */
export async function setUserDisabled(db: Db, email: string, disabled: boolean, now = new Date()) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UserInputError(`No user with email ${normaliseEmail(email)}.`);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ disabledAt: disabled ? (user.disabledAt ?? now) : null, updatedAt: now })
      .where(eq(users.id, user.id));
    if (disabled) {
      await tx
        .update(authSessions)
        .set({ endedAt: now, endReason: "disabled" })
        .where(and(eq(authSessions.userId, user.id), isNull(authSessions.endedAt)));
    }
  });
  return { id: user.id, email: user.email, disabled };
}

export async function listUsers(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      roles: users.roles,
      disabledAt: users.disabledAt,
      lockedUntil: users.lockedUntil,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(asc(users.email));
}
