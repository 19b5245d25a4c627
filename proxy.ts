import NextAuth from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
// proxy.ts runs before every request: it imports the few files it needs, not the modules' entries
// (which carry the database, Auth.js's full instance and the metrics) — docs/decisions/041.
import { authConfig, needsStaffSession } from "@/lib/auth";
import { env, isDevelopment } from "@/lib/env";
import { isSecureRequest, type TrustedProxies } from "@/lib/net";
import { familyError, isDecodablePath, noteJunk } from "@/lib/http";
import type { ErrorFamily } from "@/lib/http";
import { contentSecurityPolicy } from "@/lib/security";

const { auth } = NextAuth(authConfig);

/** Routes that set their own Content-Security-Policy, which must not be replaced by the pages' one. */
const OWN_CSP = ["/api/attachments/"];

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** The error shape of the endpoint family a path belongs to; undefined for pages. */
function familyOf(pathname: string): ErrorFamily | undefined {
  if (under(pathname, "/api/exchange") || under(pathname, "/fhir")) return "fhir";
  if (under(pathname, "/v1")) return "claims-api";
  if (under(pathname, "/oauth")) return "oauth";
  if (under(pathname, "/api") || under(pathname, "/query")) return "json";
  return undefined;
}

function trust(): TrustedProxies {
  try {
    return env().TRUSTED_PROXIES;
  } catch {
    return { kind: "none" };
  }
}

/**
 * Runs before every page and route: gives the request an id and a CSP nonce, and sends visitors
 * without a session to the sign-in page. It only redirects — pages, actions and route handlers
 * check the session and the role themselves.
 */
const withSession = auth((req) => {
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
  if (!OWN_CSP.some((p) => pathname.startsWith(p))) response.headers.set("Content-Security-Policy", csp);
  response.headers.set("X-Request-ID", requestId);
  if (isSecureRequest(req.headers, trust())) response.headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  return response;
});

export function proxy(req: NextRequest, event: NextFetchEvent) {
  const { pathname } = req.nextUrl;
  // Next.js decodes path segments for dynamic routes and answers a malformed one (`%zz`,
  // `%c3%28`) with a plain-text 500: refuse it here, in the family's shape, or as a page not found.
  if (!isDecodablePath(pathname)) {
    noteJunk("MalformedPath");
    const family = familyOf(pathname);
    const requestId = crypto.randomUUID();
    if (family) return familyError(family, 400, "bad_request", "The URL path is not valid percent-encoding (e.g. %zz).", requestId);
    return NextResponse.rewrite(new URL("/_not-found", req.nextUrl.origin), { status: 404 });
  }
  return withSession(req, event as never);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico|woff2?)$).*)"],
};
