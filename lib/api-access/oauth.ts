import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { ApiCall } from "@/lib/api";
import { AppError, type ErrorCode } from "@/lib/errors";
import type { Db, ApiEnvironment } from "@/lib/db";
import { oauthClients, oauthTokens } from "@/lib/db";
import { BodyTooLargeError, readLimitedBody, OAUTH_BODY_LIMIT_BYTES, hasControlCharacters } from "@/lib/http";
import { ApiAccessInputError, validateEnvironment, validateName, validateScopes } from "./credentials";
import { consumeRate, rateHeaders } from "./rate-limit";
import { hashSecret, randomBase62, sameHash } from "./secrets";
import { isUuid } from "@/lib/ids";

/*
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for the generic claims API. Client ids read
 * `cxc_…`, secrets `cxs_…`, access tokens `cxt_…`; secrets and tokens are stored only hashed.
 */

export const TOKEN_LIFETIME_SECONDS = 3600;
export const OAUTH_REALM = "clinic-exchange";

export type OAuthClientRecord = typeof oauthClients.$inferSelect;
export type OAuthClientSummary = Omit<OAuthClientRecord, "secretHash">;

function summary(row: OAuthClientRecord): OAuthClientSummary {
  const { secretHash: _secretHash, ...rest } = row;
  return rest;
}

export async function createOAuthClient(
  db: Db,
  input: { name: string; scopes: readonly string[]; environment: string; createdBy?: string },
): Promise<{ clientId: string; clientSecret: string; record: OAuthClientSummary }> {
  const name = validateName(input.name);
  const scopes = validateScopes(input.scopes);
  const environment = validateEnvironment(input.environment);
  const clientId = `cxc_${randomBase62(20)}`;
  const clientSecret = `cxs_${randomBase62(40)}`;
  const [row] = await db
    .insert(oauthClients)
    .values({ clientId, name, scopes, environment, secretHash: hashSecret(clientSecret), createdBy: input.createdBy ?? null })
    .returning();
  return { clientId, clientSecret, record: summary(row!) };
}

export async function listOAuthClients(db: Db): Promise<OAuthClientSummary[]> {
  const rows = await db.select().from(oauthClients).orderBy(desc(oauthClients.createdAt), desc(oauthClients.id));
  return rows.map(summary);
}

/** Revokes a client and every token it holds; the next request with one of them gets 401. */
export async function revokeOAuthClient(db: Db, by: { id?: string; clientId?: string }, now = new Date()): Promise<OAuthClientSummary> {
  if (!by.id === !by.clientId) throw new ApiAccessInputError("Give either the client's id or its client id.");
  if (by.id && !isUuid(by.id)) throw new ApiAccessInputError("The id is not a UUID.");
  const [row] = await db
    .select()
    .from(oauthClients)
    .where(by.id ? eq(oauthClients.id, by.id) : eq(oauthClients.clientId, by.clientId!));
  if (!row) throw new ApiAccessInputError("No OAuth client matches.");
  if (row.revokedAt) return summary(row);
  return db.transaction(async (tx) => {
    const [updated] = await tx.update(oauthClients).set({ revokedAt: now }).where(eq(oauthClients.id, row.id)).returning();
    await tx.update(oauthTokens).set({ revokedAt: now }).where(and(eq(oauthTokens.oauthClientId, row.id), isNull(oauthTokens.revokedAt)));
    return summary(updated ?? row);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /oauth/token

export interface TokenEndpointDeps {
  db: Db;
  /** The environment this portal runs in (PLATFORM_ENV): a client of the other one is refused. */
  environment: ApiEnvironment;
  /** Token requests per client per minute. */
  ratePerMinute: number;
  now?: () => Date;
}

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** RFC 6749 §5.2 errors as AppErrors of the one catalogue: the RFC code is the `reason` the oauth style answers with. */
function oauthFailure(code: ErrorCode, rfcCode: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope", description: string, headers: Record<string, string> = {}): AppError {
  return new AppError(code, description, { reason: rfcCode, headers });
}

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1), or undefined. */
function basicCredentials(header: string | null): { clientId: string; clientSecret: string } | undefined | "malformed" {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!match) return /^Basic(\s|$)/i.test(header) ? "malformed" : undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  try {
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
    const clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    if (hasControlCharacters(clientId) || hasControlCharacters(clientSecret)) return "malformed";
    return { clientId, clientSecret };
  } catch {
    return "malformed";
  }
}

const MAX_BODY = OAUTH_BODY_LIMIT_BYTES;

async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw oauthFailure("invalid_request", "invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  let bytes: Uint8Array;
  try {
    bytes = await readLimitedBody(request, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw oauthFailure("payload_too_large", "invalid_request", `The request body exceeds the limit of ${MAX_BODY} bytes.`);
    throw oauthFailure("invalid_request", "invalid_request", "The request body could not be read.");
  }
  const form = new URLSearchParams(new TextDecoder().decode(bytes));
  for (const name of new Set(form.keys())) {
    // Before any database call: PostgreSQL refuses NUL, and the failed query would carry the value.
    if (hasControlCharacters(name) || form.getAll(name).some((v) => hasControlCharacters(v))) {
      throw oauthFailure("invalid_request", "invalid_request", "A parameter contains control characters.");
    }
    if (form.getAll(name).length > 1) throw oauthFailure("invalid_request", "invalid_request", `The parameter ${name.slice(0, 40)} is repeated.`);
  }
  return form;
}

/**
 * The token endpoint's work, run by lib/api's kernel (handleTokenRequest). Client authentication:
 * in the body (`client_id` + `client_secret`) or with HTTP Basic — using both is
 * `invalid_request` (RFC 6749 §2.3: one method per request). Errors follow §5.2;
 * `invalid_client` is 401 with a Basic challenge when Basic was used.
 */
export async function issueToken(call: ApiCall<undefined>, request: Request, deps: TokenEndpointDeps): Promise<Response> {
  const { now } = call;
  const basic = basicCredentials(request.headers.get("authorization"));
  const usedBasic = basic !== undefined;
  call.audit.details.basic = usedBasic;
  if (basic === "malformed") throw oauthFailure("invalid_request", "invalid_request", "The Authorization header is not valid HTTP Basic.");
  const form = await readForm(request);
  const bodyId = form.get("client_id") ?? undefined;
  const bodySecret = form.get("client_secret") ?? undefined;
  if (basic && (bodySecret !== undefined || (bodyId !== undefined && bodyId !== basic.clientId))) {
    throw oauthFailure("invalid_request", "invalid_request", "Authenticate the client either with HTTP Basic or in the body, not both.");
  }
  const grantType = form.get("grant_type");
  if (!grantType) throw oauthFailure("invalid_request", "invalid_request", "grant_type is required (client_credentials).");
  const credentials = basic ?? (bodyId !== undefined || bodySecret !== undefined ? { clientId: bodyId ?? "", clientSecret: bodySecret ?? "" } : undefined);
  const challenge: Record<string, string> = usedBasic ? { "WWW-Authenticate": `Basic realm="${OAUTH_REALM}"` } : {};
  if (!credentials) {
    throw oauthFailure("unauthenticated", "invalid_client", "Client authentication is required (HTTP Basic or client_id and client_secret).", {
      "WWW-Authenticate": `Basic realm="${OAUTH_REALM}"`,
    });
  }
  const client = await authenticateClient(call.db, credentials.clientId, credentials.clientSecret);
  if (!client) throw oauthFailure("unauthenticated", "invalid_client", "Client authentication failed.", challenge);
  call.setActor({ kind: "api", id: client.id, name: `oauth:${client.name}` });
  if (client.environment !== deps.environment) {
    throw oauthFailure("unauthenticated", "invalid_client", `This client belongs to the ${client.environment} environment; this portal runs in ${deps.environment}.`, challenge);
  }
  if (grantType !== "client_credentials") throw oauthFailure("invalid_request", "unsupported_grant_type", "Only grant_type=client_credentials is supported.");

  const decision = await consumeRate(call.db, `oauth:client:${client.id}`, { limit: deps.ratePerMinute, windowMs: 60_000 }, now);
  if (!decision.allowed) throw new AppError("rate_limited", "Too many token requests; retry later.", { reason: "rate_limited", headers: rateHeaders(decision) });

  const requested = form.get("scope");
  let scopes: string[];
  if (requested === null) scopes = [...client.scopes];
  else {
    const wanted = [...new Set(requested.split(" ").filter(Boolean))];
    const refused = wanted.filter((s) => !client.scopes.includes(s));
    if (wanted.length === 0) throw oauthFailure("invalid_request", "invalid_scope", "The scope parameter is empty.");
    if (refused.length) throw oauthFailure("invalid_request", "invalid_scope", `This client may not request: ${refused.join(" ")}.`);
    scopes = wanted;
  }
  const token = `cxt_${randomBytes(32).toString("base64url")}`;
  await call.db.insert(oauthTokens).values({
    hash: hashSecret(token),
    oauthClientId: client.id,
    scopes,
    createdAt: now,
    expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000),
  });
  await call.db.update(oauthClients).set({ lastUsedAt: now }).where(eq(oauthClients.id, client.id));
  call.audit.details.scopes = scopes;
  return new Response(JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: TOKEN_LIFETIME_SECONDS, scope: scopes.join(" ") }), {
    status: 200,
    headers: { "Content-Type": "application/json;charset=UTF-8", ...NO_STORE },
  });
}

async function authenticateClient(db: Db, clientId: string, clientSecret: string): Promise<OAuthClientRecord | undefined> {
  if (!clientId || clientId.length > 100 || !clientSecret || clientSecret.length > 200) return undefined;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  // Hash even when the client is unknown, so timing says nothing about which ids exist.
  const presented = hashSecret(clientSecret);
  if (!row || row.revokedAt) return undefined;
  return sameHash(presented, row.secretHash) ? row : undefined;
}

// ---------------------------------------------------------------------------------------------
// Bearer tokens on /v1

export type BearerCheck =
  | { ok: true; client: OAuthClientSummary; scopes: string[]; tokenId: string }
  | { ok: false; message: string };

/** Resolves an access token: unknown, expired, revoked (or its client revoked) → not ok. */
export async function authenticateBearer(db: Db, token: string, environment: ApiEnvironment, now = new Date()): Promise<BearerCheck> {
  if (!/^cxt_[A-Za-z0-9_-]{43}$/.test(token)) return { ok: false, message: "The access token is not valid." };
  const [row] = await db
    .select({ token: oauthTokens, client: oauthClients })
    .from(oauthTokens)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthTokens.oauthClientId))
    .where(eq(oauthTokens.hash, hashSecret(token)))
    .limit(1);
  if (!row) return { ok: false, message: "The access token is not valid." };
  if (row.token.revokedAt || row.client.revokedAt) return { ok: false, message: "The access token has been revoked." };
  if (row.token.expiresAt <= now) return { ok: false, message: "The access token has expired; request a new one." };
  if (row.client.environment !== environment) return { ok: false, message: `The token was issued to a ${row.client.environment} client.` };
  return { ok: true, client: summary(row.client), scopes: row.token.scopes, tokenId: row.token.id };
}
