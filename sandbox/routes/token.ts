import type { IncomingMessage } from "node:http";
import { jsonReply, readBody, BodyTooLargeError, type Reply } from "../http";
import type { SandboxContext } from "../context";
import { issueAccessToken, readClientAuth, safeEqual } from "../oauth";

/**
 * POST /oauth/token — OAuth 2.0 client credentials (RFC 6749 §4.4) over mutual TLS. The client
 * authenticates with its id and secret (form body or HTTP Basic) AND must present its registered
 * certificate; the token is bound to that certificate (RFC 8705). Errors are RFC 6749 §5.2 JSON.
 */
export async function handleToken(req: IncomingMessage, thumbprint: string, ctx: SandboxContext): Promise<Reply> {
  const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" };
  const fail = (status: number, error: string, description: string, extra: Record<string, string> = {}) =>
    jsonReply(status, { error, error_description: description }, { ...noStore, ...extra });

  const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded") {
    req.resume();
    return fail(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded");
  }
  let text: string;
  try {
    text = await readBody(req, 64 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return fail(400, "invalid_request", "request body too large");
    throw error;
  }
  const form = new URLSearchParams(text);
  for (const name of ["grant_type", "client_id", "client_secret", "scope"]) {
    if (form.getAll(name).length > 1) return fail(400, "invalid_request", `parameter ${name} is repeated`);
  }
  const grantType = form.get("grant_type");
  if (!grantType) return fail(400, "invalid_request", "grant_type is required");

  const auth = readClientAuth(req.headers.authorization, form);
  const usedBasic = /^Basic\s+/i.test(req.headers.authorization ?? "");
  const challenge: Record<string, string> = usedBasic ? { "WWW-Authenticate": 'Basic realm="platform-sandbox"' } : {};
  if (!auth.ok) return fail(auth.error === "invalid_client" ? 401 : 400, auth.error, auth.description, auth.error === "invalid_client" ? challenge : {});
  if (!safeEqual(auth.auth.clientId, ctx.secrets.clientId) || !safeEqual(auth.auth.clientSecret, ctx.secrets.clientSecret)) {
    return fail(401, "invalid_client", "unknown client or wrong secret", challenge);
  }
  // The main certificate, or one of the facilities' (facilities.ts).
  const registered = ctx.facilities.byThumbprint(thumbprint) ? thumbprint : ctx.registered.thumbprint();
  if (!registered || !safeEqual(registered, thumbprint)) {
    return fail(401, "invalid_client", "the client certificate presented is not the one registered for this client", challenge);
  }
  if (grantType !== "client_credentials") {
    return fail(400, "unsupported_grant_type", "only client_credentials is supported");
  }
  const scope = form.get("scope");
  if (scope !== null && scope.split(" ").some((s) => s !== "" && !["eligibility", "claims", "status"].includes(s))) {
    return fail(400, "invalid_scope", "known scopes: eligibility claims status");
  }
  const token = await issueAccessToken(ctx.tokenKeys, ctx.clock, {
    clientId: ctx.secrets.clientId,
    providerOrgId: ctx.providerOrgId,
    thumbprint,
  });
  return jsonReply(200, token, noStore);
}
