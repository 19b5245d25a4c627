/**
 * The origin rule (docs/decisions/060-web-edge-trust-and-origin.md): a state-changing request a
 * browser could send with the session cookie — a server action, a form post, an upload, a sign-in
 * or sign-out — must come from the portal's own origin. SameSite=Lax alone lets a page on a
 * sibling subdomain or another port of the same host post with the cookie.
 *
 * The machine APIs authenticate every call with a bearer token, key or signature that a browser
 * never attaches by itself: they are outside this rule.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Families authenticated per request by a token or signature, never by the session cookie. */
const MACHINE_PREFIXES = ["/api/exchange", "/api/webhooks", "/v1", "/oauth", "/query", "/fhir", "/mcp"];

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** Whether a request must pass the origin rule: any non-safe method outside the machine APIs. */
export function needsSameOrigin(method: string, pathname: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  return !MACHINE_PREFIXES.some((p) => under(pathname, p));
}

export type CrossOriginReason = "origin_mismatch" | "origin_null" | "origin_malformed" | "fetch_site" | "no_origin" | "no_public_origin";

/**
 * Why a request is not same-origin, or undefined when it is. `publicOrigin` is the portal's
 * configured public origin (`PORTAL_URL`, lib/env `portalUrl`; docs/decisions/094) — never the
 * request's own Host or X-Forwarded-Host, which the client (or a DNS-rebinding page) chooses:
 * a forged Host with a matching Origin proved nothing. Behind a TLS-terminating proxy PORTAL_URL
 * is the https:// address the browsers use (and TRUSTED_PROXIES names the proxy, for HSTS,
 * Secure cookies and client addresses).
 *
 *  - Origin present: it must be exactly that origin (`null` — sandboxed frames, data: URLs — never is).
 *  - Sec-Fetch-Site present: it must be `same-origin` (`same-site` is exactly the sibling case).
 *  - Neither present: refused. Every browser the portal supports sends Origin on a POST; a
 *    client that sends neither is not a browser and has no business with the session cookie.
 */
export function crossOriginReason(headers: Headers, publicOrigin: string | undefined): CrossOriginReason | undefined {
  const origin = headers.get("origin");
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite.trim().toLowerCase() !== "same-origin") return "fetch_site";
  if (origin === null) return fetchSite !== null ? undefined : "no_origin";
  if (origin.trim() === "null") return "origin_null";
  let given: URL;
  try {
    given = new URL(origin);
  } catch {
    return "origin_malformed";
  }
  if (given.protocol !== "http:" && given.protocol !== "https:") return "origin_malformed";
  let own: URL;
  try {
    // The URL parser drops a scheme's default port, as a browser's Origin does.
    own = new URL(publicOrigin ?? "");
  } catch {
    return "no_public_origin";
  }
  return given.origin === own.origin ? undefined : "origin_mismatch";
}
