"use server";

import { actorOf, audit } from "@/lib/audit";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { currentUser } from "./guards";
import { safeCallbackPath, signInSchema } from "./schemas";
import { endSession } from "./sessions";

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
