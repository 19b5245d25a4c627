import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { appMeta } from "@/lib/db";
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
