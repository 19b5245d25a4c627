import type { NextAuthConfig } from "next-auth";
import { noteJunk } from "@/lib/http";
import { safeRedirectUrl } from "@/lib/security/browser";
import { SESSION_ABSOLUTE_MS } from "./session-limits";

/**
 * The part of the Auth.js configuration that proxy.ts also loads. It must stay free of database
 * and native imports: the proxy only decides whether to send a visitor to the sign-in page; every
 * page, action and route checks the session and role itself (lib/auth/guards.ts).
 */
const PUBLIC_PAGES = ["/sign-in"];
/** Machine interfaces authenticate each request themselves (API keys, JWTs, tokens, signatures). */
const SELF_AUTHENTICATED = ["/api", "/v1", "/oauth", "/query", "/fhir", "/mcp"];

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** Staff pages that need a signed-in user; everything else is left to its own handler. */
export function needsStaffSession(pathname: string): boolean {
  return !PUBLIC_PAGES.some((p) => under(pathname, p)) && !SELF_AUTHENTICATED.some((p) => under(pathname, p));
}

/** Errors a client causes (bad cookies, missing CSRF token, junk URLs): counted, never a log line each. */
/** Auth.js errors a client causes (junk, a wrong password): counted, never logged one by one. */
export const CLIENT_CAUSED_AUTH_ERRORS = new Set([
  "CredentialsSignin",
  "MissingCSRF",
  "JWTSessionError",
  "InvalidCheck",
  "UnknownAction",
  "UnsupportedStrategy",
  "InvalidCallbackUrl",
  "InvalidProvider",
  "MissingAdapter",
  "CallbackRouteError",
]);

/**
 * Auth.js' logger for both instances (proxy and full). Its default prints messages that may quote
 * the request (cookies, URLs); here only the error's type is ever printed, and client-caused
 * errors are counted at debug level instead.
 */
export const authLogger: NonNullable<NextAuthConfig["logger"]> = {
  error(error) {
    // Match on `type`: class names are minified in the production bundle.
    const type = (error as Error & { type?: string }).type ?? error.name;
    if (CLIENT_CAUSED_AUTH_ERRORS.has(type) || /invalid url/i.test(error.message)) {
      // A failed sign-in is expected and already audited with its reason.
      if (type !== "CredentialsSignin") noteJunk(/invalid url/i.test(error.message) ? "InvalidURL" : type);
      return;
    }
    console.error(`[auth] ${type}`);
  },
  warn(code) {
    console.warn(`[auth] warning ${code}`);
  },
  debug() {
    // Auth.js' debug output carries tokens and cookies: never printed.
  },
};

export const authConfig = {
  pages: { signIn: "/sign-in" },
  logger: authLogger,
  session: { strategy: "jwt", maxAge: SESSION_ABSOLUTE_MS / 1000 },
  // Auth.js builds its URLs and picks its cookies' Secure flag and __Host-/__Secure- names from
  // X-Forwarded-Proto/-Host; proxy.ts hands it only the values TRUSTED_PROXIES allows
  // (lib/net withTrustedForwarding, docs/decisions/060), so trusting "the host" is that rule.
  trustHost: true,
  providers: [],
  callbacks: {
    // Auth.js' callbackUrl / redirectTo (its sign-in and sign-out routes, signIn() in the action):
    // the portal's one redirect rule, for both instances (docs/decisions/094).
    redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl);
    },
    // The proxy's instance only: who holds the cookie, for the audit of a refused request
    // (proxy.ts). The full instance (auth.ts) has its own callbacks that re-check the session.
    session({ session, token }) {
      return { ...session, user: token.user as typeof session.user };
    },
  },
} satisfies NextAuthConfig;
