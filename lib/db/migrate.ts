import path from "node:path";
import { env } from "@/lib/env";
import type { Database } from "./client";

/** Arbitrary constant: the advisory lock that serialises migrations across portal instances. */
const MIGRATION_LOCK_KEY = 7_402_219_001;

export function migrationsFolder(): string {
  return env().MIGRATIONS_DIR ?? path.join(process.cwd(), "drizzle");
}

/**
 * Applies the committed migrations in drizzle/. Several portal instances may start at once on
 * one PostgreSQL: a session-level advisory lock lets one migrate while the others wait.
 */
export async function runMigrations(database: Database): Promise<void> {
  const folder = migrationsFolder();
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.db as never, { migrationsFolder: folder });
    return;
  }
  const [{ Client }, { drizzle }, { migrate }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  // A dedicated connection: advisory locks belong to the session that took them.
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end();
  }
}
