import { familyError, noteJunk, requestIdOf } from "@/lib/http";
import { safeRedirectUrl } from "@/lib/security/browser";

/**
 * Auth.js' own POST endpoints (/api/auth/callback/credentials, /signout …) take a form, as its
 * client and the portal's sign-in send it. Given a JSON Content-Type Auth.js parses the body
 * itself and logs a client's broken JSON as an error (a SyntaxError with no hint that the client
 * caused it). Such a body is refused here, 415 in the JSON family's shape, and counted as junk
 * like every other client-caused sign-in error (docs/decisions/060).
 */
const FORM = /^application\/x-www-form-urlencoded\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

export function authBodyRefusal(request: Request): Response | undefined {
  const type = request.headers.get("content-type");
  if (type === null || FORM.test(type.trim())) return undefined;
  noteJunk("AuthBodyType");
  return familyError("json", 415, "content_type", "Sign-in endpoints take an application/x-www-form-urlencoded form.", requestIdOf(request));
}

/**
 * Auth.js refuses a `callbackUrl` query parameter or callback-url cookie it cannot parse as an
 * http URL (`\t//evil.example`, `%09`, `@:`) as a *configuration* error: a 500 page (GET) or a
 * JSON 500 (POST). Both are the client's input, so they are replaced here by what the portal's one
 * redirect rule makes of them (lib/security, docs/decisions/094) — a same-origin URL, the home page
 * when refused — before Auth.js sees the request. The redirect callback applies the same rule again.
 */
export async function withSafeCallbackUrl(request: Request): Promise<Request> {
  const url = new URL(request.url);
  // A safe path stays as given (Auth.js accepts a path); anything else becomes what the rule makes of it.
  const safeOf = (value: string) => {
    const safe = safeRedirectUrl(value, url.origin);
    return safe === `${url.origin}${value}` ? value : safe;
  };
  let changed = false;
  const given = url.searchParams.getAll("callbackUrl");
  if (given.length > 0) {
    const safe = safeOf(given[0]!);
    if (given.length > 1 || safe !== given[0]) {
      url.searchParams.set("callbackUrl", safe);
      changed = true;
    }
  }
  const headers = new Headers(request.headers);
  const cookie = headers.get("cookie");
  if (cookie) {
    const rewritten = cookie
      .split(/;\s*/)
      .map((pair) => {
        const at = pair.indexOf("=");
        const name = at === -1 ? pair : pair.slice(0, at);
        if (!/(^|\.)authjs\.callback-url$/.test(name)) return pair;
        let value = "";
        try {
          value = decodeURIComponent(pair.slice(at + 1));
        } catch {
          value = "";
        }
        const safe = safeOf(value);
        return safe === value ? pair : `${name}=${encodeURIComponent(safe)}`;
      })
      .join("; ");
    if (rewritten !== cookie) {
      headers.set("cookie", rewritten);
      changed = true;
    }
  }
  if (!changed) return request;
  noteJunk("AuthCallbackUrl");
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  return new Request(url, { method: request.method, headers, body });
}
