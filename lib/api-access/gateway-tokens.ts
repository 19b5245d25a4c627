import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { gatewayTokens } from "@/lib/db/schema";
import { ApiAccessInputError, validateName } from "./api-keys";
import { hashSecret, randomBase62 } from "./secrets";

/*
 * Bearer tokens of the agent gateway (`POST /query`, `/fhir/**`). A token reads `cxg_` followed
 * by 40 base62 characters (≈ 238 bits); only its SHA-256 hash is stored, with the visible prefix
 * `cxg_` + the first 6 random characters, shown in lists and used to revoke.
 */

export const GATEWAY_TOKEN_PREFIX = "cxg_";
const RANDOM_LENGTH = 40;
const VISIBLE = 6;
/** `last_used_at` is written at most this often per token (one UPDATE per minute, not per call). */
export const GATEWAY_LAST_USED_RESOLUTION_MS = 60_000;
const TOKEN_SHAPE = /^cxg_[A-Za-z0-9]{40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type GatewayTokenRecord = typeof gatewayTokens.$inferSelect;
/** What lists show: never the hash. */
export type GatewayTokenSummary = Omit<GatewayTokenRecord, "hash">;

export { ApiAccessInputError };

function summary(row: GatewayTokenRecord): GatewayTokenSummary {
  const { hash: _hash, ...rest } = row;
  return rest;
}

/** Creates a token; the returned `token` is the only time the secret exists outside the caller's hands. */
export async function createGatewayToken(db: Db, input: { name: string; createdBy?: string }): Promise<{ token: string; record: GatewayTokenSummary }> {
  const name = validateName(input.name);
  const random = randomBase62(RANDOM_LENGTH);
  const token = `${GATEWAY_TOKEN_PREFIX}${random}`;
  const [row] = await db
    .insert(gatewayTokens)
    .values({ name, prefix: `${GATEWAY_TOKEN_PREFIX}${random.slice(0, VISIBLE)}`, hash: hashSecret(token), createdBy: input.createdBy ?? null })
    .returning();
  return { token, record: summary(row!) };
}

/** Newest first. */
export async function listGatewayTokens(db: Db): Promise<GatewayTokenSummary[]> {
  const rows = await db.select().from(gatewayTokens).orderBy(desc(gatewayTokens.createdAt), desc(gatewayTokens.id));
  return rows.map(summary);
}

/** Revokes one active token, by id or by its visible prefix; effective for the very next request. */
export async function revokeGatewayToken(db: Db, by: { id?: string; prefix?: string }, now = new Date()): Promise<GatewayTokenSummary> {
  if (!by.id === !by.prefix) throw new ApiAccessInputError("Give either the token's id or its prefix.");
  if (by.id && !UUID.test(by.id)) throw new ApiAccessInputError("The id is not a UUID.");
  const match = by.id ? eq(gatewayTokens.id, by.id) : eq(gatewayTokens.prefix, by.prefix!);
  const candidates = await db.select().from(gatewayTokens).where(match);
  if (candidates.length === 0) throw new ApiAccessInputError("No gateway token matches.");
  const active = candidates.filter((k) => !k.revokedAt);
  if (active.length === 0) return summary(candidates[0]!);
  if (active.length > 1) throw new ApiAccessInputError("Several tokens share this prefix; revoke by --id.");
  const [row] = await db
    .update(gatewayTokens)
    .set({ revokedAt: now })
    .where(and(eq(gatewayTokens.id, active[0]!.id), isNull(gatewayTokens.revokedAt)))
    .returning();
  return summary(row ?? active[0]!);
}

/** Why a request was not authorized (for the audit log; the caller sees one message). */
export type GatewayAuthFailure = "missing" | "malformed" | "unknown" | "revoked";

export type GatewayTokenCheck = { ok: true; token: GatewayTokenSummary } | { ok: false; reason: GatewayAuthFailure; token?: GatewayTokenSummary };

/**
 * Resolves an `Authorization` header: `Bearer <token>` (scheme case-insensitive). The token is
 * looked up by its SHA-256 hash — the comparison happens on the hash index, so the secret itself
 * is never compared byte by byte.
 */
export async function authenticateGatewayToken(db: Db, header: string | null | undefined, now = new Date()): Promise<GatewayTokenCheck> {
  if (header === null || header === undefined || header.trim() === "") return { ok: false, reason: "missing" };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) return { ok: false, reason: "malformed" };
  const presented = match[1]!;
  if (!TOKEN_SHAPE.test(presented)) return { ok: false, reason: "unknown" };
  const [row] = await db.select().from(gatewayTokens).where(eq(gatewayTokens.hash, hashSecret(presented))).limit(1);
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revokedAt && row.revokedAt <= now) return { ok: false, reason: "revoked", token: summary(row) };
  await touchGatewayToken(db, row.id, now);
  return { ok: true, token: summary(row) };
}

/** Sets `last_used_at` unless it was set less than a minute ago. */
export async function touchGatewayToken(db: Db, id: string, now = new Date()): Promise<void> {
  const threshold = new Date(now.getTime() - GATEWAY_LAST_USED_RESOLUTION_MS);
  await db
    .update(gatewayTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(gatewayTokens.id, id), or(isNull(gatewayTokens.lastUsedAt), lt(gatewayTokens.lastUsedAt, threshold))));
}
