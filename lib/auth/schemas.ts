import { z } from "zod";
import { safeRedirectPath } from "@/lib/security/browser";

/**
 * The sign-in form's input, parsed by the browser form (zodResolver) and again on the server.
 * Messages are catalogue keys under `signIn.errors`, translated where they are shown.
 */
export const signInSchema = z.object({
  email: z.string().trim().min(1, "emailRequired").max(320, "emailRequired").email("emailInvalid"),
  password: z.string().min(1, "passwordRequired").max(256, "passwordRequired"),
  callbackUrl: z.string().max(2000).optional(),
});

export type SignInInput = z.infer<typeof signInSchema>;

/**
 * Where to go after sign-in: a safe same-origin path (lib/security's one redirect rule,
 * docs/decisions/094), never the sign-in page itself or an API route; undefined otherwise (the
 * caller falls back to the home page).
 */
export function safeCallbackPath(value: unknown): string | undefined {
  const path = safeRedirectPath(value);
  if (!path) return undefined;
  if (/^\/sign-in(?:[/?#]|$)/.test(path) || /^\/api(?:[/?#]|$)/.test(path)) return undefined;
  return path;
}
