import { z } from "zod";

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

/** Only same-site paths are followed after sign-in (no open redirects). */
export function safeCallbackPath(value: string | undefined | null): string | undefined {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  if (value.startsWith("/sign-in") || value.startsWith("/api/")) return undefined;
  return value;
}
