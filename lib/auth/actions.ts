"use server";

import { revalidatePath } from "next/cache";
import { actorOf, audit } from "@/lib/audit";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { currentUser } from "./guards";
import { safeCallbackPath, signInSchema } from "./schemas";
import { endSession } from "./sessions";
import { changePasswordSchema, setDisabledSchema, setRolesSchema, userRefSchema } from "./account-schemas";
import { changeOwnPassword, resetUserPassword, setAccountDisabled, setUserRoles, unlockUser } from "./accounts";
import { AREAS, ROLES, homeFor, type Role } from "./roles";
import { staffAction, type ActionFailure, type ActionResult } from "./staff-action";
import { UserInputError } from "./users";

/*
 * The two actions open to anyone: signing in (no session yet) and signing out (any session). They
 * are not staff actions — there is no role to check — and the action × role matrix lists them so.
 */

/** Ends the server-side session first, so the old cookie is worthless even if it was copied. */
export async function signOutAction(): Promise<void> {
  const user = await currentUser();
  if (user) {
    const db = await getDb();
    await endSession(db, user.sessionId, "sign_out");
    const ctx = await requestContext();
    await audit(db, {
      actor: actorOf(user),
      action: "auth.sign_out",
      outcome: "success",
      requestId: ctx.requestId,
      ip: ctx.ip,
    });
  }
  await (await import("./auth")).signOut({ redirectTo: "/sign-in" });
}

export type SignInState = { error?: "invalid" | "failed" };

/**
 * Every failure — unknown email, wrong password, locked or disabled account — gets the same
 * answer, so the form cannot be used to discover accounts. The audit log has the real reason.
 */
export async function signInAction(input: unknown): Promise<SignInState> {
  const parsed = signInSchema.safeParse(input);
  if (!parsed.success) return { error: "invalid" };
  const { email, password, callbackUrl } = parsed.data;
  try {
    // On success this throws Next's redirect, which the client follows.
    await (await import("./auth")).signIn("credentials", { email, password, redirectTo: safeCallbackPath(callbackUrl) ?? "/" });
  } catch (error) {
    // Loaded here, like Auth.js itself (lib/auth/guards.ts): the module's entry must not load Next.js.
    const { AuthError } = await import("next-auth");
    if (error instanceof AuthError) return { error: "failed" };
    throw error;
  }
  return {};
}

/*
 * Running accounts (decision 102). Administrators manage other users; everyone changes
 * their own password. The rules and the audit rows live in lib/auth/accounts.ts.
 */

/** A refusal of the account rules, as the form shows it (a key under `account.errors`). */
function accountRefusal(error: unknown): ActionFailure | undefined {
  if (!(error instanceof UserInputError)) return undefined;
  const field = error.code === "wrongPassword" ? "currentPassword" : error.code === "sameAsCurrent" || error.code === "tooShort" || error.code === "tooLong" ? "newPassword" : undefined;
  return { ok: false, error: error.code, ...(field ? { field, fieldErrors: { [field]: [error.code] } } : {}) };
}

const ADMINS = AREAS.settings.roles;

export const setUserRolesAction = staffAction(
  ADMINS,
  setRolesSchema,
  async (input, ctx): Promise<ActionResult<{ roles: Role[] }>> => {
    const result = await setUserRoles(ctx.db, ctx.caller, { id: input.userId }, input.roles);
    revalidatePath("/settings/users");
    return { ok: true, roles: result.roles };
  },
  { name: "users", refusal: accountRefusal },
);

export const resetUserPasswordAction = staffAction(
  ADMINS,
  userRefSchema,
  async (input, ctx): Promise<ActionResult<{ temporaryPassword: string }>> => {
    const result = await resetUserPassword(ctx.db, ctx.caller, { id: input.userId });
    revalidatePath("/settings/users");
    // Shown once to the administrator; only its hash is kept.
    return { ok: true, temporaryPassword: result.temporaryPassword };
  },
  { name: "users", refusal: accountRefusal },
);

export const unlockUserAction = staffAction(
  ADMINS,
  userRefSchema,
  async (input, ctx): Promise<ActionResult<{ wasLocked: boolean }>> => {
    const result = await unlockUser(ctx.db, ctx.caller, { id: input.userId });
    revalidatePath("/settings/users");
    return { ok: true, wasLocked: result.wasLocked };
  },
  { name: "users", refusal: accountRefusal },
);

export const setUserDisabledAction = staffAction(
  ADMINS,
  setDisabledSchema,
  async (input, ctx): Promise<ActionResult<{ disabled: boolean }>> => {
    const result = await setAccountDisabled(ctx.db, ctx.caller, { id: input.userId }, input.disabled);
    revalidatePath("/settings/users");
    return { ok: true, disabled: result.disabled };
  },
  { name: "users", refusal: accountRefusal },
);

/** "Change my password": every signed-in user, also while a temporary password must be changed. */
export const changeOwnPasswordAction = staffAction(
  ROLES,
  changePasswordSchema,
  async (input, ctx): Promise<ActionResult<{ home: string }>> => {
    await changeOwnPassword(ctx.db, ctx.caller, { currentPassword: input.currentPassword, newPassword: input.newPassword, sessionId: ctx.user.sessionId });
    return { ok: true, home: homeFor(ctx.user.roles) };
  },
  { name: "account", refusal: accountRefusal, passwordChange: true },
);
