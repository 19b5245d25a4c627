import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { users } from "@/lib/db";
import { hashPassword, passwordProblem } from "./password";
import { isRole, type Role } from "./roles";

/**
 * A refusal that is the operator's to fix. `code` names it for the screens (a key under
 * `account.errors`); the message is the CLI's English words.
 */
export class UserInputError extends Error {
  override name = "UserInputError";
  constructor(
    message: string,
    readonly code: UserRefusal = "invalid",
  ) {
    super(message);
  }
}

export type UserRefusal = "invalid" | "notFound" | "lastAdmin" | "selfLockout" | "selfReset" | "wrongPassword" | "sameAsCurrent" | "tooShort" | "tooLong";

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
