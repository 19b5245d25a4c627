import fs from "node:fs";
import { sql } from "drizzle-orm";
import { getDatabase, queryRows, migrationsFolder } from "@/lib/db";
import { describePlatform } from "@/lib/platform";
import { shutdownState } from "@/lib/http";

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; platform: string };
  reason?: string;
}

/** Migrations committed with this build (drizzle/meta/_journal.json). */
function expectedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(`${migrationsFolder()}/meta/_journal.json`, "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * What a load balancer needs to know before sending work: the database answers, every migration of
 * this build is applied, the platform configuration is usable, and the instance is not shutting down.
 */
export async function readiness(): Promise<Readiness> {
  const checks = { database: "unchecked", migrations: "unchecked", platform: "unchecked" };
  const fail = (reason: string): Readiness => ({ ready: false, checks, reason });
  if (shutdownState().draining) return fail("shutting down");
  let database;
  try {
    database = await getDatabase();
    await database.query("select 1");
    checks.database = "ok";
  } catch (error) {
    checks.database = "unavailable";
    return fail(`database unavailable: ${(error as Error).message}`);
  }
  try {
    const [result] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const applied = Number(result?.n ?? 0);
    const expected = expectedMigrations();
    if (applied < expected) {
      checks.migrations = `${applied} of ${expected} applied`;
      return fail(`migrations pending: ${applied} of ${expected} applied`);
    }
    checks.migrations = "ok";
  } catch (error) {
    checks.migrations = "unknown";
    return fail(`cannot read the migrations table: ${(error as Error).message}`);
  }
  const platform = describePlatform();
  if (!platform.configured) {
    checks.platform = "not configured";
    return fail(`platform not configured: ${platform.problem}`);
  }
  if ("error" in platform.certificate) {
    checks.platform = "certificate unreadable";
    return fail(platform.certificate.error);
  }
  if (platform.certificate.expired) {
    checks.platform = "certificate expired";
    return fail("the platform client certificate has expired (PLATFORM_CLIENT_CERT)");
  }
  checks.platform = "ok";
  return { ready: true, checks };
}
