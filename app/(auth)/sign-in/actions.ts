"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/lib/auth";
import { safeCallbackPath, signInSchema } from "@/lib/auth/schemas";

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
    await signIn("credentials", { email, password, redirectTo: safeCallbackPath(callbackUrl) ?? "/" });
  } catch (error) {
    if (error instanceof AuthError) return { error: "failed" };
    throw error;
  }
  return {};
}
