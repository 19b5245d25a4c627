import argon2 from "argon2";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./account-policy";

/** OWASP's argon2id baseline (19 MiB, 2 passes) is the floor; we use 64 MiB, 3 passes. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 65_536, timeCost: 3, parallelism: 1 } as const;

export { PASSWORD_MIN_LENGTH };

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash so that an unknown email costs the same time as a wrong
 * password: sign-in timing must not reveal which accounts exist.
 */
export async function burnVerification(password: string): Promise<void> {
  dummy ??= hashPassword("timing-equaliser-not-a-password");
  await verifyPassword(await dummy, password);
}

/** Why a new password is not acceptable, or undefined when it is. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}
