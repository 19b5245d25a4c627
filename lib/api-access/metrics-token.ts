import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { appMeta } from "@/lib/db";
import { auditRefusal } from "@/lib/audit";
import { contextFromHeaders } from "@/lib/http";
import { hashSecret, randomBase62, sameHash } from "./secrets";

/**
 * The bearer token a Prometheus scraper sends to GET /api/metrics. One per installation (a new
 * one replaces the old at once); stored only as its SHA-256 hash in app_meta, shown once.
 */
const KEY = "metrics-token";

export interface MetricsTokenRecord {
  prefix: string;
  hash: string;
  createdAt: string;
}

export async function createMetricsToken(db: Db, now = new Date()): Promise<{ token: string; record: MetricsTokenRecord; replaced: boolean }> {
  const token = `cxm_${randomBase62(40)}`;
  const record: MetricsTokenRecord = { prefix: token.slice(0, 10), hash: hashSecret(token), createdAt: now.toISOString() };
  const replaced = (await currentRecord(db)) !== undefined;
  await db
    .insert(appMeta)
    .values({ key: KEY, value: { ...record }, updatedAt: now })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: { ...record }, updatedAt: now } });
  return { token, record, replaced };
}

/** Removes the token: /api/metrics then refuses every scraper. True when there was one. */
export async function revokeMetricsToken(db: Db): Promise<boolean> {
  const deleted = await db.delete(appMeta).where(eq(appMeta.key, KEY)).returning({ key: appMeta.key });
  return deleted.length > 0;
}

export async function currentRecord(db: Db): Promise<MetricsTokenRecord | undefined> {
  const [row] = await db.select().from(appMeta).where(eq(appMeta.key, KEY));
  return row?.value as MetricsTokenRecord | undefined;
}

/** Checks an `Authorization` header against the stored hash (constant time). */
export async function verifyMetricsToken(db: Db, authorization: string | null): Promise<boolean> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  if (!match) return false;
  const record = await currentRecord(db);
  return record !== undefined && sameHash(record.hash, hashSecret(match[1]!));
}

/**
 * GET /api/metrics' check: the token, or a refusal audited once as `metrics.unauthorized`
 * (denied; the reason, never the token) and counted in the log, not printed per request
 * (docs/decisions/094).
 */
export async function authorizeMetricsScrape(db: Db, headers: Headers): Promise<boolean> {
  const authorization = headers.get("authorization");
  if (await verifyMetricsToken(db, authorization)) return true;
  const reason = !authorization ? "missing_token" : !/^Bearer\s+\S+$/i.test(authorization) ? "not_bearer" : (await currentRecord(db)) ? "wrong_token" : "no_token_configured";
  const ctx = contextFromHeaders(headers);
  await auditRefusal(db, { actor: { kind: "anonymous", label: "metrics" }, action: "metrics.unauthorized", junk: "MetricsUnauthorized", requestId: ctx.requestId, ip: ctx.ip, details: { reason } });
  return false;
}
