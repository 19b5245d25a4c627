import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db";
import { contextFromHeaders, noteJunk } from "@/lib/http";
import { CLIENT_CAUSED_AUTH_ERRORS, authConfig } from "./config";
import { signInWithPassword } from "./credentials";
import { signInSchema } from "./schemas";
import { checkSession } from "./sessions";
import type { Role } from "./roles";
import { log } from "@/lib/log";
import { env, usesSandbox } from "@/lib/env";

declare module "next-auth" {
  interface User {
    roles?: Role[];
    sessionId?: string;
  }
  interface Session {
    user: { id: string; email: string; name: string; roles: Role[]; mustChangePassword: boolean };
    sessionId: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    sid?: string;
    /** Filled by the jwt callback from the database on every call; never trusted from the cookie. */
    user?: { id: string; email: string; name: string; roles: Role[]; mustChangePassword: boolean };
  }
}

/**
 * The full Auth.js instance (Node only). The cookie holds a signed token carrying just the id of
 * a server-side session; the jwt callback re-checks that session on every call, so sign-out,
 * the idle and absolute limits and a disabled account take effect at once.
 */
export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  logger: {
    // A failed sign-in is expected and already audited with its reason; log only real faults.
    error(error) {
      // Match on `type`: class names are minified in the production bundle. Never the message:
      // Auth.js quotes the request path in it (e.g. UnknownAction), which may hold patient data.
      const type = (error as Error & { type?: string }).type ?? error.name;
      if (CLIENT_CAUSED_AUTH_ERRORS.has(type) || /invalid url/i.test(error.message)) {
        if (type !== "CredentialsSignin") noteJunk(/invalid url/i.test(error.message) ? "InvalidURL" : type);
        return;
      }
      log("auth").error(`auth error ${type}`);
    },
    warn(code) {
      log("auth").warn(`warning ${code}`);
    },
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(raw, request) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) throw new CredentialsSignin();
        // Outside the bundled sandbox the demo password is a published one (decision 102).
        const publishedPassword = usesSandbox() ? undefined : env().DEMO_PASSWORD;
        const result = await signInWithPassword(await getDb(), { email: parsed.data.email, password: parsed.data.password }, { ...contextFromHeaders(request.headers), publishedPassword });
        if (!result.ok) throw new CredentialsSignin();
        const { user } = result;
        return { id: user.id, email: user.email, name: user.name, roles: user.roles, sessionId: user.sessionId };
      },
    }),
  ],
  callbacks: {
    // The one redirect rule (docs/decisions/094), as in the proxy's instance.
    redirect: authConfig.callbacks.redirect,
    async jwt({ token, user }) {
      // At sign-in only the session id is kept in the cookie.
      const sid = user ? user.sessionId : token.sid;
      if (!sid) return null;
      const check = await checkSession(await getDb(), sid);
      if (!check.ok) return null;
      const { id, email, name, roles, mustChangePassword } = check.user;
      return { sub: id, sid, user: { id, email, name, roles, mustChangePassword } };
    },
    async session({ session, token }) {
      if (!token.user || !token.sid) return { ...session, user: undefined as never, sessionId: "" };
      return { ...session, sessionId: token.sid, user: { ...session.user, ...token.user } };
    },
  },
});
