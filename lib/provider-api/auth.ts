import { lt } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK, type JWTPayload } from "jose";
import { ORG_CLIENT_ID_PATTERN, activeKeysOf } from "@/lib/api-access";
import type { OrgClient, OrgKey } from "@/lib/api-access";
import type { Db } from "@/lib/db";
import { jwtReplays } from "@/lib/db";

/**
 * Authentication of the provider-side exchange API: `Authorization: Bearer <JWT>` signed by the
 * organization's private key (RS256 or ES256 only), checked against its registered public keys.
 *
 * Required: `iss` = `sub` = the org client id, `aud` = the portal's exchange URL, `iat` (not in the
 * future beyond the skew), `exp` (after now, at most 5 minutes after `iat`), `jti` (used once).
 * `kid` selects the key; without it every active key of the issuer is tried.
 */

/** What a refused client is told (WWW-Authenticate error_description); never which key or check. */
export type PublicAuthReason = "missing_token" | "malformed_token" | "unsupported_alg" | "expired" | "replayed" | "invalid_token";

/** Internal detail, for the audit log only. */
export type AuthFailure =
  | "missing_token"
  | "not_bearer"
  | "malformed_token"
  | "unsupported_alg"
  | "missing_claims"
  | "iss_sub_mismatch"
  | "unknown_client"
  | "client_disabled"
  | "no_active_key"
  | "unknown_kid"
  | "bad_signature"
  | "wrong_audience"
  | "expired"
  | "not_yet_valid"
  | "issued_in_future"
  | "lifetime_too_long"
  | "replayed";

const PUBLIC_REASON: Record<AuthFailure, PublicAuthReason> = {
  missing_token: "missing_token",
  not_bearer: "missing_token",
  malformed_token: "malformed_token",
  unsupported_alg: "unsupported_alg",
  missing_claims: "invalid_token",
  iss_sub_mismatch: "invalid_token",
  unknown_client: "invalid_token",
  client_disabled: "invalid_token",
  no_active_key: "invalid_token",
  unknown_kid: "invalid_token",
  bad_signature: "invalid_token",
  wrong_audience: "invalid_token",
  expired: "expired",
  not_yet_valid: "invalid_token",
  issued_in_future: "invalid_token",
  lifetime_too_long: "invalid_token",
  replayed: "replayed",
};

export function publicReason(failure: AuthFailure): PublicAuthReason {
  return PUBLIC_REASON[failure];
}

export interface AuthSettings {
  audience: string;
  maxTokenLifetimeSeconds: number;
  clockSkewSeconds: number;
}

export type AuthResult =
  | { ok: true; client: OrgClient; key: OrgKey; jti: string }
  | { ok: false; failure: AuthFailure; clientId?: string; client?: OrgClient };

const ALLOWED_ALGS = new Set(["RS256", "ES256"]);
const MAX_TOKEN_CHARS = 16 * 1024;
/** `jti`: 1–200 printable ASCII characters (a UUID is the usual choice). */
const JTI_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** Reads the bearer token of a request; undefined when there is none. */
export function bearerToken(header: string | null): { token?: string; failure?: AuthFailure } {
  if (!header || !header.trim()) return { failure: "missing_token" };
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  if (!match) return { failure: "not_bearer" };
  return { token: match[1] };
}

let replayInserts = 0;

export async function authenticate(db: Db, authorization: string | null, settings: AuthSettings, now: Date = new Date()): Promise<AuthResult> {
  const { token, failure } = bearerToken(authorization);
  if (!token) return { ok: false, failure: failure ?? "missing_token" };
  if (token.length > MAX_TOKEN_CHARS || token.split(".").length !== 3) return { ok: false, failure: "malformed_token" };

  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    unverified = decodeJwt(token);
  } catch {
    return { ok: false, failure: "malformed_token" };
  }
  // Only asymmetric algorithms: `none`, HS256 (e.g. with the public key as the secret) and the rest are refused here.
  if (typeof header.alg !== "string" || !ALLOWED_ALGS.has(header.alg)) return { ok: false, failure: "unsupported_alg" };
  if (header.crit !== undefined || header.jwk !== undefined || header.jku !== undefined || header.x5u !== undefined) {
    // The key always comes from our registry, never from the token.
    return { ok: false, failure: "malformed_token" };
  }
  const iss = unverified.iss;
  if (typeof iss !== "string" || !iss) return { ok: false, failure: "missing_claims" };
  // Not a client id we could have issued: unknown, without asking the database.
  if (!ORG_CLIENT_ID_PATTERN.test(iss)) return { ok: false, failure: "unknown_client" };
  const clientId = iss;

  const { client, keys } = await activeKeysOf(db, clientId);
  if (!client) return { ok: false, failure: "unknown_client", clientId };
  if (client.disabledAt) return { ok: false, failure: "client_disabled", clientId, client };
  const usable = keys.filter((k) => k.alg === header.alg);
  if (keys.length === 0) return { ok: false, failure: "no_active_key", clientId, client };
  const candidates = typeof header.kid === "string" ? usable.filter((k) => k.kid === header.kid) : usable;
  if (candidates.length === 0) return { ok: false, failure: typeof header.kid === "string" ? "unknown_kid" : "bad_signature", clientId, client };

  let payload: JWTPayload | undefined;
  let key: OrgKey | undefined;
  let lastFailure: AuthFailure = "bad_signature";
  for (const candidate of candidates) {
    try {
      const publicKey = await importJWK(candidate.jwk as JWK, candidate.alg);
      const verified = await jwtVerify(token, publicKey, {
        algorithms: [candidate.alg],
        issuer: clientId,
        subject: clientId,
        audience: settings.audience,
        clockTolerance: settings.clockSkewSeconds,
        currentDate: now,
        requiredClaims: ["iss", "sub", "aud", "exp", "iat", "jti"],
      });
      payload = verified.payload;
      key = candidate;
      break;
    } catch (error) {
      lastFailure = failureOf(error);
      // A verified signature with bad claims is final: no other key will change the claims.
      if (lastFailure !== "bad_signature") return { ok: false, failure: lastFailure, clientId, client };
    }
  }
  if (!payload || !key) return { ok: false, failure: lastFailure, clientId, client };

  const nowSec = Math.floor(now.getTime() / 1000);
  const { iat, exp, jti } = payload;
  if (typeof iat !== "number" || typeof exp !== "number" || typeof jti !== "string" || !JTI_PATTERN.test(jti)) {
    return { ok: false, failure: "missing_claims", clientId, client };
  }
  if (iat > nowSec + settings.clockSkewSeconds) return { ok: false, failure: "issued_in_future", clientId, client };
  if (exp - iat > settings.maxTokenLifetimeSeconds) return { ok: false, failure: "lifetime_too_long", clientId, client };

  // jti: once per issuer, remembered until the token could no longer be used anyway.
  const expiresAt = new Date((exp + settings.clockSkewSeconds) * 1000);
  const inserted = await db.insert(jwtReplays).values({ issuer: clientId, jti, expiresAt }).onConflictDoNothing().returning({ jti: jwtReplays.jti });
  if (inserted.length === 0) return { ok: false, failure: "replayed", clientId, client };
  if (++replayInserts % 200 === 0) void pruneJwtReplays(db, now).catch(() => undefined);
  return { ok: true, client, key, jti };
}

function failureOf(error: unknown): AuthFailure {
  const code = (error as { code?: string }).code;
  const claim = (error as { claim?: string }).claim;
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "aud") return "wrong_audience";
      if (claim === "nbf") return "not_yet_valid";
      if (claim === "iss" || claim === "sub") return "iss_sub_mismatch";
      if (claim === "iat") return "issued_in_future";
      return "missing_claims";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "bad_signature";
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return "unsupported_alg";
    case "ERR_JWT_INVALID":
    case "ERR_JWS_INVALID":
      return "malformed_token";
    default:
      return "bad_signature";
  }
}

/** Forgets used `jti`s whose tokens have expired. */
export async function pruneJwtReplays(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(jwtReplays).where(lt(jwtReplays.expiresAt, now));
}
