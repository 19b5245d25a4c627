import NextAuth from "next-auth";
import { NextRequest, NextResponse, type NextFetchEvent } from "next/server";
// proxy.ts runs before every request: it imports the few files it needs, not the modules' entries
// (which carry the database, Auth.js's full instance and the metrics) — docs/decisions/041.
import { authConfig, needsStaffSession, safeCallbackPath } from "@/lib/auth";
import { env, isDevelopment, portalUrl } from "@/lib/env";
import { clientAddress, trustedForwarded, withTrustedForwarding, type ForwardedView, type TrustedProxies } from "@/lib/net";
import { familyError, isDecodablePath, noteJunk, routePattern } from "@/lib/http";
import type { ErrorFamily } from "@/lib/http";
import {
  ACTION_NOT_FOUND_HEADER,
  actionRefusal,
  contentSecurityPolicy,
  crossOriginReason,
  isActionCandidate,
  knownActionIds,
  needsSameOrigin,
  recordRefusal,
} from "@/lib/security";
import { drainingResponse, isDraining } from "@/lib/server/draining";

const { auth } = NextAuth(authConfig);

/** Routes that set their own Content-Security-Policy, which must not be replaced by the pages' one. */
const OWN_CSP = ["/api/attachments/"];

/**
 * One edge for every path (docs/decisions/094). The matcher below leaves out exactly what Next.js
 * serves as files: `/_next/static/` (the build's `.next/static`: scripts, styles, fonts). The
 * portal has no `public/` folder (lib/security/static-paths.test.ts fails when one appears without
 * its paths here). Every other path — whatever it ends in (`/patients/x.png`) — passes the
 * origin rule, the server-action checks, the audit and the CSP.
 */
const NEXT_OWN = "/_next/";

/** The app's icons (app/favicon.ico, app/icon.svg), by their exact paths: the sign-in page shows them too. */
const APP_ICONS = new Set(["/favicon.ico", "/icon.svg"]);

/** A read of Next.js' own endpoints (`/_next/image`, the dev server's) or of an app icon: no sign-in redirect, every other rule applies. */
const nextOwnFetch = (method: string, pathname: string) => (method === "GET" || method === "HEAD") && (pathname.startsWith(NEXT_OWN) || APP_ICONS.has(pathname));

/** Liveness and readiness keep answering while draining: readiness says 503 "shutting down" itself. */
const DRAIN_EXEMPT = new Set(["/api/health", "/api/ready"]);

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** The error shape of the endpoint family a path belongs to; undefined for pages. */
function familyOf(pathname: string): ErrorFamily | undefined {
  if (under(pathname, "/api/exchange") || under(pathname, "/fhir")) return "fhir";
  if (under(pathname, "/v1")) return "claims-api";
  if (under(pathname, "/oauth")) return "oauth";
  if (under(pathname, "/api") || under(pathname, "/query") || under(pathname, "/mcp")) return "json";
  return undefined;
}

function trust(): TrustedProxies {
  try {
    return env().TRUSTED_PROXIES;
  } catch {
    return { kind: "none" };
  }
}

/** The portal's configured public origin (PORTAL_URL): the origin rule's one reference (docs/decisions/094). */
function publicOrigin(): string | undefined {
  try {
    return new URL(portalUrl()).origin;
  } catch {
    return undefined;
  }
}

type SessionRequest = NextRequest & { auth: { user?: { id?: string; email?: string; roles?: readonly string[] } } | null };

/**
 * The edge's refusals (docs/decisions/060, 061, 094): a state-changing request from another origin
 * (403), a server action Next.js could not run (4xx). Each is audited once as denied (with the
 * cookie's user when there is one; never the body) and counted as junk (one debug line, a summary
 * a minute), never an error line. Undefined: the request goes on.
 */
async function refusal(req: SessionRequest, original: NextRequest, trusted: TrustedProxies, requestId: string): Promise<Response | undefined> {
  const { pathname } = req.nextUrl;
  const user = req.auth?.user;
  const audited = (action: string, details: Record<string, unknown>) =>
    recordRefusal({
      actor: user?.id && user.email ? { kind: "user", id: user.id, email: user.email, roles: user.roles ?? [] } : { kind: "anonymous", label: "web" },
      action,
      outcome: "denied",
      requestId,
      ip: clientAddress(req.headers, trusted),
      details: { ...details, method: req.method.slice(0, 10), route: routePattern(pathname) },
    });
  if (needsSameOrigin(req.method, pathname)) {
    const reason = crossOriginReason(req.headers, publicOrigin());
    if (reason) {
      noteJunk("CrossOrigin");
      const origin = (req.headers.get("origin") ?? "").slice(0, 120);
      await audited("request.cross_origin", { reason, origin: origin || undefined, fetchSite: req.headers.get("sec-fetch-site")?.slice(0, 20) });
      return familyError(familyOf(pathname) ?? "json", 403, "cross_origin", "Refused: a request that changes data must come from the portal's own pages (same Origin).", requestId);
    }
  }
  // Server actions live on pages only: every API family (/api, /fhir, /query, /v1, /oauth) answers its own bodies.
  if (familyOf(pathname) === undefined && isActionCandidate(req.method, req.headers)) {
    const refused = await actionRefusal(req.headers, async () => original.clone(), knownActionIds(), original.signal);
    if (refused) {
      noteJunk(refused.junk);
      await audited("request.action_refused", { reason: refused.reason, status: refused.status });
      if (refused.reason === "action_body") return familyError("json", 400, "action_body", "The server action's request body cannot be read.", requestId);
      if (refused.reason === "action_too_large") return familyError("json", 413, "action_too_large", "The server action's request body is larger than 1 MB.", requestId);
      // The answer Next.js itself gives, which its client router understands (a reload on skew).
      const text = refused.status === 400 ? "Invalid Server Action request." : "Server Action unavailable.";
      return new Response(text, { status: refused.status, headers: { "content-type": "text/plain", "cache-control": "no-store", [ACTION_NOT_FOUND_HEADER]: "1", "X-Request-ID": requestId } });
    }
  }
  return undefined;
}

/**
 * Runs before every page and route: gives the request an id and a CSP nonce, applies the edge's
 * refusals, and sends visitors without a session to the sign-in page. It only redirects — pages,
 * actions and route handlers check the session and the role themselves.
 */
async function edge(req: SessionRequest, original: NextRequest, view: ForwardedView, trusted: TrustedProxies): Promise<Response> {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, isDevelopment());
  const requestId = crypto.randomUUID();
  const { pathname, search } = req.nextUrl;

  const refused = await refusal(req, original, trusted, requestId);
  if (refused) {
    refused.headers.set("Content-Security-Policy", csp);
    return refused;
  }

  let response: NextResponse;
  if (!req.auth?.user && needsStaffSession(pathname) && !nextOwnFetch(req.method, pathname)) {
    const url = new URL("/sign-in", req.nextUrl.origin);
    // Only a path the sign-in page will follow back (docs/decisions/094); otherwise home.
    const back = pathname !== "/" ? safeCallbackPath(`${pathname}${search}`) : undefined;
    if (back) url.searchParams.set("callbackUrl", back);
    response = NextResponse.redirect(url);
  } else {
    // req.headers already carry the trusted X-Forwarded-Proto/-Host (lib/net): pages, actions,
    // route handlers and Auth.js downstream see only those.
    const headers = new Headers(req.headers);
    headers.set("x-nonce", nonce);
    headers.set("content-security-policy", csp);
    headers.set("x-request-id", requestId);
    response = NextResponse.next({ request: { headers } });
  }
  if (!OWN_CSP.some((p) => pathname.startsWith(p))) response.headers.set("Content-Security-Policy", csp);
  response.headers.set("X-Request-ID", requestId);
  if (view.proto === "https") response.headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  return response;
}

export function proxy(req: NextRequest, event: NextFetchEvent) {
  const { pathname } = req.nextUrl;
  // After SIGTERM: refused before any work, in the family's shape (docs/decisions/069).
  if (isDraining() && !DRAIN_EXEMPT.has(pathname)) return drainingResponse(familyOf(pathname), crypto.randomUUID());
  // Next.js decodes path segments for dynamic routes and answers a malformed one (`%zz`,
  // `%c3%28`) with a plain-text 500: refuse it here, in the family's shape, or as a page not found.
  if (!isDecodablePath(pathname)) {
    noteJunk("MalformedPath");
    const family = familyOf(pathname);
    const requestId = crypto.randomUUID();
    if (family) return familyError(family, 400, "bad_request", "The URL path is not valid percent-encoding (e.g. %zz).", requestId);
    return NextResponse.rewrite(new URL("/_not-found", req.nextUrl.origin), { status: 404 });
  }
  // One trust rule for every forwarded header (docs/decisions/060): Auth.js here and downstream
  // reads X-Forwarded-Proto/-Host for its cookie names and URLs, so it is given the trusted ones.
  const trusted = trust();
  const view = trustedForwarded(req.headers, trusted);
  const forwarded = new NextRequest(req.url, { method: req.method, headers: withTrustedForwarding(req.headers, trusted) });
  const withSession = auth((r) => edge(r as SessionRequest, req, view, trusted));
  return withSession(forwarded, event as never);
}

export const config = {
  // Keep in step with STATIC_MATCHER in lib/security/static-paths.test.ts.
  matcher: ["/((?!_next/static/).*)"],
};
