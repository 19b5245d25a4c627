import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { apiKeys, type ApiEnvironment } from "@/lib/db/schema";
import { hashSecret, isApiScope, randomBase62 } from "./secrets";

/*
 * API keys of the generic claims API (`X-API-Key`). A key reads `cxk_live_…` (production) or
 * `cxk_test_…` (sandbox) followed by 40 base62 characters; the first 6 of those, with the
 * environment part, are the visible prefix shown in lists and used to revoke (`cxk_live_3f9aB2`).
 */

export const KEY_PREFIX: Record<ApiEnvironment, string> = { production: "cxk_live_", sandbox: "cxk_test_" };
const RANDOM_LENGTH = 40;
const VISIBLE = 6;
/** `last_used_at` is written at most this often per key (one UPDATE per minute, not per call). */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeyRecord = typeof apiKeys.$inferSelect;
/** What lists show: never the hash. */
export type ApiKeySummary = Omit<ApiKeyRecord, "hash">;

export class ApiAccessInputError extends Error {
  override name = "ApiAccessInputError";
}

export function validateName(name: string | undefined): string {
  const trimmed = (name ?? "").trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new ApiAccessInputError("The name must be 1 to 100 characters.");
  return trimmed;
}

export function validateScopes(scopes: readonly string[]): string[] {
  const unique = [...new Set(scopes.map((s) => s.trim()).filter(Boolean))];
  if (unique.length === 0) throw new ApiAccessInputError("At least one scope is required (claims:read).");
  const unknown = unique.filter((s) => !isApiScope(s));
  if (unknown.length) throw new ApiAccessInputError(`Unknown scope ${unknown.join(", ")}; known scopes: claims:read.`);
  return unique;
}

export function validateEnvironment(value: string | undefined): ApiEnvironment {
  if (value === "sandbox" || value === "production") return value;
  throw new ApiAccessInputError("The environment must be sandbox or production.");
}

function summary(row: ApiKeyRecord): ApiKeySummary {
  const { hash: _hash, ...rest } = row;
  return rest;
}

/** Creates a key; the returned `key` is the only time the secret exists outside the caller's hands. */
export async function createApiKey(
  db: Db,
  input: { name: string; environment: string; scopes: readonly string[]; createdBy?: string },
): Promise<{ key: string; record: ApiKeySummary }> {
  const name = validateName(input.name);
  const environment = validateEnvironment(input.environment);
  const scopes = validateScopes(input.scopes);
  const random = randomBase62(RANDOM_LENGTH);
  const key = `${KEY_PREFIX[environment]}${random}`;
  const [row] = await db
    .insert(apiKeys)
    .values({ name, environment, scopes, prefix: `${KEY_PREFIX[environment]}${random.slice(0, VISIBLE)}`, hash: hashSecret(key), createdBy: input.createdBy ?? null })
    .returning();
  return { key, record: summary(row!) };
}

export async function listApiKeys(db: Db): Promise<ApiKeySummary[]> {
  const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(summary);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Revokes one active key, by id or by its visible prefix; effective for the very next request. */
export async function revokeApiKey(db: Db, by: { id?: string; prefix?: string }, now = new Date()): Promise<ApiKeySummary> {
  if (!by.id === !by.prefix) throw new ApiAccessInputError("Give either the key's id or its prefix.");
  if (by.id && !UUID.test(by.id)) throw new ApiAccessInputError("The id is not a UUID.");
  const match = by.id ? eq(apiKeys.id, by.id) : eq(apiKeys.prefix, by.prefix!);
  const candidates = await db.select().from(apiKeys).where(match);
  const active = candidates.filter((k) => !k.revokedAt);
  if (candidates.length === 0) throw new ApiAccessInputError("No API key matches.");
  if (active.length === 0) return summary(candidates[0]!);
  if (active.length > 1) throw new ApiAccessInputError("Several keys share this prefix; revoke by --id.");
  const [row] = await db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.id, active[0]!.id), isNull(apiKeys.revokedAt))).returning();
  return summary(row ?? active[0]!);
}

export type ApiKeyCheck =
  | { ok: true; key: ApiKeySummary }
  | { ok: false; code: "invalid_api_key" | "api_key_revoked" | "key_wrong_environment"; message: string };

const KEY_SHAPE = /^cxk_(live|test)_[A-Za-z0-9]{40}$/;

/**
 * Resolves an `X-API-Key` value. A key works only in the environment it was made for: a
 * production key sent to a sandbox portal (or the reverse) is refused with its own code, so the
 * integrator sees the mix-up instead of a bare "invalid key".
 */
export async function authenticateApiKey(db: Db, presented: string, environment: ApiEnvironment, now = new Date()): Promise<ApiKeyCheck> {
  const shape = KEY_SHAPE.exec(presented);
  if (!shape) return { ok: false, code: "invalid_api_key", message: "The API key is not valid." };
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.hash, hashSecret(presented))).limit(1);
  if (!row) {
    const other = shape[1] === "live" ? "production" : "sandbox";
    if (other !== environment) {
      return { ok: false, code: "key_wrong_environment", message: `This is a ${other} key; this portal runs in ${environment}. Use a ${environment} key.` };
    }
    return { ok: false, code: "invalid_api_key", message: "The API key is not valid." };
  }
  if (row.revokedAt && row.revokedAt <= now) return { ok: false, code: "api_key_revoked", message: "The API key has been revoked." };
  if (row.environment !== environment) {
    return { ok: false, code: "key_wrong_environment", message: `This is a ${row.environment} key; this portal runs in ${environment}. Use a ${environment} key.` };
  }
  await touchApiKey(db, row.id, now);
  return { ok: true, key: summary(row) };
}

/** Sets `last_used_at` unless it was set less than a minute ago (a no-op UPDATE otherwise). */
export async function touchApiKey(db: Db, id: string, now = new Date()): Promise<void> {
  const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, threshold))));
}
