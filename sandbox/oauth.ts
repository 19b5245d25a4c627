import { createPrivateKey, createPublicKey, randomUUID, timingSafeEqual, type KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "./clock";

/**
 * OAuth 2.0 client credentials with certificate-bound access tokens (RFC 8705).
 *
 * Access tokens are JWTs (RFC 9068 profile, `typ: at+jwt`) signed ES256 with the sandbox's own key:
 * they need no token store and survive a restart. Each carries `cnf: { "x5t#S256": <thumbprint> }`
 * of the client certificate presented on the token request, and is accepted only over a connection
 * presenting that same certificate, which must still be the client's registered certificate.
 */

export const TOKEN_LIFETIME_SECONDS = 3600;
export const TOKEN_ISSUER = "urn:clinic-exchange:platform-sandbox";
export const TOKEN_AUDIENCE = "urn:clinic-exchange:platform-sandbox:fhir";
export const TOKEN_SCOPE = "eligibility claims status";

export interface TokenKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

export function loadTokenKeys(pkcs8Pem: string): TokenKeys {
  const privateKey = createPrivateKey(pkcs8Pem);
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: "jwk" });
  return { privateKey, publicKey, kid: `${jwk.x?.slice(0, 8) ?? "key"}` };
}

export async function issueAccessToken(
  keys: TokenKeys,
  clock: Clock,
  claims: { clientId: string; providerOrgId: string; thumbprint: string },
): Promise<{ access_token: string; token_type: "Bearer"; expires_in: number; scope: string }> {
  const nowSeconds = Math.floor(clock.now() / 1000);
  const token = await new SignJWT({
    client_id: claims.clientId,
    scope: TOKEN_SCOPE,
    provider: `Organization/${claims.providerOrgId}`,
    cnf: { "x5t#S256": claims.thumbprint },
  })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: keys.kid })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(claims.clientId)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + TOKEN_LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(keys.privateKey);
  return { access_token: token, token_type: "Bearer", expires_in: TOKEN_LIFETIME_SECONDS, scope: TOKEN_SCOPE };
}

export type TokenCheck =
  | { ok: true; clientId: string; providerOrgId: string }
  | { ok: false; reason: "missing" | "malformed" | "invalid" | "expired" | "certificate-mismatch" | "certificate-superseded"; message: string };

/**
 * Verifies a bearer token presented over a connection whose client certificate has `presented`
 * thumbprint; `registered` is the thumbprint of the client's current certificate.
 */
export async function verifyAccessToken(
  keys: TokenKeys,
  clock: Clock,
  authorization: string | undefined,
  presented: string,
  registered: string | undefined,
): Promise<TokenCheck> {
  if (!authorization) return { ok: false, reason: "missing", message: "Authorization header with a Bearer token is required" };
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
  if (!match?.[1]) return { ok: false, reason: "malformed", message: "Authorization header must be 'Bearer <access token>'" };
  let payload: Record<string, unknown>;
  try {
    const result = await jwtVerify(match[1], keys.publicKey, {
      algorithms: ["ES256"],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      typ: "at+jwt",
      currentDate: new Date(clock.now()),
      requiredClaims: ["exp", "iat", "sub", "cnf"],
    });
    payload = result.payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "expired", message: "The access token has expired" };
    return { ok: false, reason: "invalid", message: "The access token is not valid" };
  }
  const cnf = payload.cnf as Record<string, unknown> | undefined;
  const bound = typeof cnf?.["x5t#S256"] === "string" ? (cnf["x5t#S256"] as string) : undefined;
  if (!bound || !safeEqual(bound, presented)) {
    return {
      ok: false,
      reason: "certificate-mismatch",
      message: "The access token is bound to a different client certificate than the one presented",
    };
  }
  if (!registered || !safeEqual(presented, registered)) {
    return {
      ok: false,
      reason: "certificate-superseded",
      message: "The client certificate is no longer the registered certificate (it was renewed); use the new one",
    };
  }
  const provider = typeof payload.provider === "string" ? payload.provider : "";
  return { ok: true, clientId: String(payload.sub), providerOrgId: provider.replace(/^Organization\//, "") };
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export interface ClientAuth {
  clientId: string;
  clientSecret: string;
}

export type ClientAuthResult = { ok: true; auth: ClientAuth; method: "basic" | "body" } | { ok: false; error: string; description: string };

/** Reads client credentials from HTTP Basic or the form body (RFC 6749 §2.3.1); both at once is an error. */
export function readClientAuth(authorization: string | undefined, form: URLSearchParams): ClientAuthResult {
  const bodyId = form.get("client_id");
  const bodySecret = form.get("client_secret");
  if (authorization && /^Basic\s+/i.test(authorization)) {
    if (bodySecret !== null) {
      return { ok: false, error: "invalid_request", description: "use only one client authentication method" };
    }
    let decoded: string;
    try {
      decoded = Buffer.from(authorization.replace(/^Basic\s+/i, ""), "base64").toString("utf8");
    } catch {
      return { ok: false, error: "invalid_client", description: "malformed Basic credentials" };
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) return { ok: false, error: "invalid_client", description: "malformed Basic credentials" };
    const clientId = safeDecode(decoded.slice(0, colon));
    const clientSecret = safeDecode(decoded.slice(colon + 1));
    if (bodyId !== null && bodyId !== clientId) {
      return { ok: false, error: "invalid_request", description: "client_id in the body differs from the Basic credentials" };
    }
    return { ok: true, auth: { clientId, clientSecret }, method: "basic" };
  }
  if (bodyId === null || bodySecret === null) {
    return { ok: false, error: "invalid_client", description: "client authentication is required (client_id and client_secret)" };
  }
  return { ok: true, auth: { clientId: bodyId, clientSecret: bodySecret }, method: "body" };
}

function safeDecode(s: string): string {
  // RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64.
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}
