import { familyError, noteJunk, requestIdOf } from "@/lib/http";

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
