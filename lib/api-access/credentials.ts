import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, ApiEnvironment } from "@/lib/db";
import { apiKeys, gatewayTokens } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { hashSecret, isApiScope, randomBase62 } from "./secrets";

/*
 * The one store of the secrets the portal issues to machines: API keys of the generic claims API
 * (`X-API-Key: cxk_live_…` / `cxk_test_…`) and bearer tokens of the agent gateway (`cxg_…`). Each
 * kind is a row in its own table with the same life: created with 40 base62 characters
 * (≈ 238 bits) shown once, stored only as a SHA-256 hash plus a visible prefix (the kind's prefix
 * + 6 random characters) used in lists and to revoke; found by its hash on every request;
 * `last_used_at` written at most once a minute; revoked by id or prefix, effective at once.
 * OAuth clients (lib/api-access/oauth.ts) have a client id and secret and live elsewhere.
 */

const RANDOM_LENGTH = 40;
const VISIBLE = 6;
/** `last_used_at` is written at most this often per credential (one UPDATE per minute, not per call). */
export const LAST_USED_RESOLUTION_MS = 60_000;

export class ApiAccessInputError extends Error {
  override name = "ApiAccessInputError";
}

/** The columns every credential table has. */
interface CredentialRow {
  id: string;
  prefix: string;
  hash: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

interface CredentialKind<Row extends CredentialRow> {
  /** For messages: "API key", "gateway token". */
  label: string;
  table: PgTable;
  columns: { id: PgColumn; prefix: PgColumn; hash: PgColumn; revokedAt: PgColumn; lastUsedAt: PgColumn; createdAt: PgColumn };
  /** A type-level witness of the row (never read). */
  row?: Row;
}

export type ApiKeyRecord = typeof apiKeys.$inferSelect;
export type GatewayTokenRecord = typeof gatewayTokens.$inferSelect;

const API_KEY: CredentialKind<ApiKeyRecord> = { label: "API key", table: apiKeys, columns: apiKeys };
const GATEWAY_TOKEN: CredentialKind<GatewayTokenRecord> = { label: "gateway token", table: gatewayTokens, columns: gatewayTokens };

/** What lists show: never the hash. */
export type Summary<Row extends CredentialRow> = Omit<Row, "hash">;

function summary<Row extends CredentialRow>(row: Row): Summary<Row> {
  const { hash: _hash, ...rest } = row;
  return rest;
}

async function insertCredential<Row extends CredentialRow>(db: Db, kind: CredentialKind<Row>, prefix: string, values: Record<string, unknown>): Promise<{ secret: string; record: Summary<Row> }> {
  const random = randomBase62(RANDOM_LENGTH);
  const secret = `${prefix}${random}`;
  const rows: unknown[] = await db
    .insert(kind.table)
    .values({ ...values, prefix: `${prefix}${random.slice(0, VISIBLE)}`, hash: hashSecret(secret) })
    .returning();
  return { secret, record: summary(rows[0] as Row) };
}

async function listCredentials<Row extends CredentialRow>(db: Db, kind: CredentialKind<Row>): Promise<Summary<Row>[]> {
  const rows = (await db.select().from(kind.table).orderBy(desc(kind.columns.createdAt), desc(kind.columns.id))) as Row[];
  return rows.map(summary);
}

async function revokeCredential<Row extends CredentialRow>(db: Db, kind: CredentialKind<Row>, by: { id?: string; prefix?: string }, now: Date): Promise<Summary<Row>> {
  const { label, table, columns } = kind;
  if (!by.id === !by.prefix) throw new ApiAccessInputError(`Give either the ${label}'s id or its prefix.`);
  if (by.id !== undefined && !isUuid(by.id)) throw new ApiAccessInputError("The id is not a UUID.");
  const match = by.id ? eq(columns.id, by.id) : eq(columns.prefix, by.prefix!);
  const candidates = (await db.select().from(table).where(match)) as Row[];
  if (candidates.length === 0) throw new ApiAccessInputError(`No ${label} matches.`);
  const active = candidates.filter((k) => !k.revokedAt);
  if (active.length === 0) return summary(candidates[0]!);
  if (active.length > 1) throw new ApiAccessInputError(`Several ${label}s share this prefix; revoke by --id.`);
  const [row] = (await db
    .update(table)
    .set({ revokedAt: now })
    .where(and(eq(columns.id, active[0]!.id), isNull(columns.revokedAt)))
    .returning()) as Row[];
  return summary(row ?? active[0]!);
}

/** The row whose hash matches the presented secret (the comparison happens on the hash index). */
async function findBySecret<Row extends CredentialRow>(db: Db, kind: CredentialKind<Row>, presented: string): Promise<Row | undefined> {
  const [row] = (await db.select().from(kind.table).where(eq(kind.columns.hash, hashSecret(presented))).limit(1)) as Row[];
  return row;
}

/** Sets `last_used_at` unless it was set less than a minute ago (a no-op UPDATE otherwise). */
async function touchCredential(db: Db, kind: CredentialKind<CredentialRow>, id: string, now: Date): Promise<void> {
  const { columns } = kind;
  const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await db
    .update(kind.table)
    .set({ lastUsedAt: now })
    .where(and(eq(columns.id, id), or(isNull(columns.lastUsedAt), lt(columns.lastUsedAt, threshold))));
}

// ── Input checks shared with OAuth clients ──────────────────────────────────────────────────────

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

// ── API keys (generic claims API, `X-API-Key`) ──────────────────────────────────────────────────

export const KEY_PREFIX: Record<ApiEnvironment, string> = { production: "cxk_live_", sandbox: "cxk_test_" };
const KEY_SHAPE = /^cxk_(live|test)_[A-Za-z0-9]{40}$/;
export type ApiKeySummary = Summary<ApiKeyRecord>;

/** Creates a key; the returned `key` is the only time the secret exists outside the caller's hands. */
export async function createApiKey(
  db: Db,
  input: { name: string; environment: string; scopes: readonly string[]; createdBy?: string },
): Promise<{ key: string; record: ApiKeySummary }> {
  const name = validateName(input.name);
  const environment = validateEnvironment(input.environment);
  const scopes = validateScopes(input.scopes);
  const { secret, record } = await insertCredential(db, API_KEY, KEY_PREFIX[environment], { name, environment, scopes, createdBy: input.createdBy ?? null });
  return { key: secret, record };
}

export const listApiKeys = (db: Db) => listCredentials(db, API_KEY);

/** Revokes one active key, by id or by its visible prefix; effective for the very next request. */
export const revokeApiKey = (db: Db, by: { id?: string; prefix?: string }, now = new Date()) => revokeCredential(db, API_KEY, by, now);

export type ApiKeyCheck =
  | { ok: true; key: ApiKeySummary }
  | { ok: false; code: "invalid_api_key" | "api_key_revoked" | "key_wrong_environment"; message: string };

/**
 * Resolves an `X-API-Key` value. A key works only in the environment it was made for: a
 * production key sent to a sandbox portal (or the reverse) is refused with its own code, so the
 * integrator sees the mix-up instead of a bare "invalid key".
 */
export async function authenticateApiKey(db: Db, presented: string, environment: ApiEnvironment, now = new Date()): Promise<ApiKeyCheck> {
  const shape = KEY_SHAPE.exec(presented);
  if (!shape) return { ok: false, code: "invalid_api_key", message: "The API key is not valid." };
  const row = await findBySecret(db, API_KEY, presented);
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
  await touchCredential(db, API_KEY, row.id, now);
  return { ok: true, key: summary(row) };
}

// ── Gateway tokens (agent gateway, `Authorization: Bearer`) ─────────────────────────────────────

export const GATEWAY_TOKEN_PREFIX = "cxg_";
const TOKEN_SHAPE = /^cxg_[A-Za-z0-9]{40}$/;
export type GatewayTokenSummary = Summary<GatewayTokenRecord>;

/** Creates a token; the returned `token` is the only time the secret exists outside the caller's hands. */
export async function createGatewayToken(db: Db, input: { name: string; createdBy?: string }): Promise<{ token: string; record: GatewayTokenSummary }> {
  const name = validateName(input.name);
  const { secret, record } = await insertCredential(db, GATEWAY_TOKEN, GATEWAY_TOKEN_PREFIX, { name, createdBy: input.createdBy ?? null });
  return { token: secret, record };
}

/** Newest first. */
export const listGatewayTokens = (db: Db) => listCredentials(db, GATEWAY_TOKEN);

/** Revokes one active token, by id or by its visible prefix; effective for the very next request. */
export const revokeGatewayToken = (db: Db, by: { id?: string; prefix?: string }, now = new Date()) => revokeCredential(db, GATEWAY_TOKEN, by, now);

/** Why a request was not authorized (for the audit log; the caller sees one message). */
export type GatewayAuthFailure = "missing" | "malformed" | "unknown" | "revoked";

export type GatewayTokenCheck = { ok: true; token: GatewayTokenSummary } | { ok: false; reason: GatewayAuthFailure; token?: GatewayTokenSummary };

/** Resolves an `Authorization` header: `Bearer <token>` (scheme case-insensitive). */
export async function authenticateGatewayToken(db: Db, header: string | null | undefined, now = new Date()): Promise<GatewayTokenCheck> {
  if (header === null || header === undefined || header.trim() === "") return { ok: false, reason: "missing" };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) return { ok: false, reason: "malformed" };
  const presented = match[1]!;
  if (!TOKEN_SHAPE.test(presented)) return { ok: false, reason: "unknown" };
  const row = await findBySecret(db, GATEWAY_TOKEN, presented);
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revokedAt && row.revokedAt <= now) return { ok: false, reason: "revoked", token: summary(row) };
  await touchCredential(db, GATEWAY_TOKEN, row.id, now);
  return { ok: true, token: summary(row) };
}
