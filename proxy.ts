import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { authConfig, needsStaffSession } from "@/lib/auth/config";
import { isDevelopment } from "@/lib/env";
import { contentSecurityPolicy } from "@/lib/security/csp";

const { auth } = NextAuth(authConfig);

/**
 * Runs before every page and route: gives the request an id and a CSP nonce, and sends visitors
 * without a session to the sign-in page. It only redirects — pages, actions and route handlers
 * check the session and the role themselves.
 */
export const proxy = auth((req) => {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, isDevelopment());
  const requestId = crypto.randomUUID();
  const { pathname, search } = req.nextUrl;

  let response: NextResponse;
  if (!req.auth?.user && needsStaffSession(pathname)) {
    const url = new URL("/sign-in", req.nextUrl.origin);
    if (pathname !== "/") url.searchParams.set("callbackUrl", `${pathname}${search}`);
    response = NextResponse.redirect(url);
  } else {
    const headers = new Headers(req.headers);
    headers.set("x-nonce", nonce);
    headers.set("content-security-policy", csp);
    headers.set("x-request-id", requestId);
    response = NextResponse.next({ request: { headers } });
  }
  response.headers.set("Content-Security-Policy", csp);
  response.headers.set("X-Request-ID", requestId);
  return response;
});

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico|woff2?)$).*)"],
};
