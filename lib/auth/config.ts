import type { NextAuthConfig } from "next-auth";
import { SESSION_ABSOLUTE_MS } from "./session-limits";

/**
 * The part of the Auth.js configuration that proxy.ts also loads. It must stay free of database
 * and native imports: the proxy only decides whether to send a visitor to the sign-in page; every
 * page, action and route checks the session and role itself (lib/auth/guards.ts).
 */
const PUBLIC_PAGES = ["/sign-in"];
/** Machine interfaces authenticate each request themselves (API keys, JWTs, tokens, signatures). */
const SELF_AUTHENTICATED = ["/api", "/v1", "/oauth", "/query", "/fhir"];

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** Staff pages that need a signed-in user; everything else is left to its own handler. */
export function needsStaffSession(pathname: string): boolean {
  return !PUBLIC_PAGES.some((p) => under(pathname, p)) && !SELF_AUTHENTICATED.some((p) => under(pathname, p));
}

export const authConfig = {
  pages: { signIn: "/sign-in" },
  session: { strategy: "jwt", maxAge: SESSION_ABSOLUTE_MS / 1000 },
  trustHost: true,
  providers: [],
} satisfies NextAuthConfig;
