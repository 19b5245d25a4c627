import { authenticateApiKey, authenticateBearer } from "@/lib/api-access";
import type { ApiScope } from "@/lib/api-access";
import type { Db, ApiEnvironment } from "@/lib/db";
import type { AuthStrategy } from "@/lib/api";
import { AppError } from "@/lib/errors";
import { claimsApiError } from "./errors";

/** Who is calling /v1: an API key or an OAuth client (through its access token). */
export interface ApiCaller {
  via: "api_key" | "oauth";
  id: string;
  /** For the audit log: `api-key:<name> (<prefix>)` or `oauth:<name>`. */
  label: string;
  scopes: string[];
  /** Rate-limit bucket: per key, per client. */
  bucket: string;
}

export const BEARER_REALM = 'Bearer realm="clinic-exchange"';

/**
 * Resolves the caller from `X-API-Key` or `Authorization: Bearer` (exactly one of them), then
 * checks the scope. Throws AppError: 400 both given, 401 none/invalid (RFC 6750 challenge
 * for bearer tokens), 403 insufficient_scope.
 */
export async function authenticateCaller(request: Request, deps: { db: Db; environment: ApiEnvironment; now: Date }, scope: ApiScope): Promise<ApiCaller> {
  const key = request.headers.get("x-api-key");
  const authorization = request.headers.get("authorization");
  if (key !== null && authorization !== null) {
    throw claimsApiError("ambiguous_credentials", "Send either X-API-Key or Authorization: Bearer, not both.");
  }
  let caller: ApiCaller;
  if (key !== null) {
    const check = await authenticateApiKey(deps.db, key.trim(), deps.environment, deps.now);
    if (!check.ok) throw claimsApiError(check.code, check.message);
    caller = { via: "api_key", id: check.key.id, label: `api-key:${check.key.name} (${check.key.prefix})`, scopes: check.key.scopes, bucket: `v1:key:${check.key.id}` };
    if (!caller.scopes.includes(scope)) throw claimsApiError("insufficient_scope", `This API key lacks the ${scope} scope.`);
    return caller;
  }
  if (authorization !== null) {
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
    if (!match) {
      // Another scheme (or none usable): no credentials this API knows, so a bare challenge (RFC 6750 §3.1).
      throw claimsApiError("unauthorized", "The Authorization header must be `Bearer <access_token>`.", {
        headers: { "WWW-Authenticate": BEARER_REALM },
      });
    }
    const check = await authenticateBearer(deps.db, match[1]!, deps.environment, deps.now);
    if (!check.ok) {
      throw claimsApiError("invalid_token", check.message, {
        headers: { "WWW-Authenticate": `${BEARER_REALM}, error="invalid_token", error_description="${check.message.replace(/"/g, "'")}"` },
      });
    }
    caller = { via: "oauth", id: check.client.id, label: `oauth:${check.client.name}`, scopes: check.scopes, bucket: `v1:client:${check.client.id}` };
    if (!caller.scopes.includes(scope)) {
      throw claimsApiError("insufficient_scope", `The access token lacks the ${scope} scope.`, {
        headers: { "WWW-Authenticate": `${BEARER_REALM}, error="insufficient_scope", scope="${scope}"` },
      });
    }
    return caller;
  }
  throw claimsApiError("unauthorized", "Authenticate with an X-API-Key header or an OAuth 2.0 bearer token (POST /oauth/token).", {
    headers: { "WWW-Authenticate": BEARER_REALM },
  });
}

/** The /v1 strategy: an API key or an OAuth bearer token with `scope`, rate-limited per key / client. */
export function apiKeyOrBearerStrategy(deps: { environment: ApiEnvironment; ratePerMinute: number }, scope: ApiScope): AuthStrategy<ApiCaller> {
  return async (request, db, now) => {
    try {
      const caller = await authenticateCaller(request, { db, environment: deps.environment, now }, scope);
      return { ok: true, value: { principal: caller, actor: { kind: "api", id: caller.id, name: caller.label }, rate: { bucket: caller.bucket, limit: deps.ratePerMinute, fast: true } } };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
  };
}
