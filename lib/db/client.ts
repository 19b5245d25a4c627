import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { acquireDataDirLock } from "./pglite-lock";
import { log } from "@/lib/log";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** The connection string, for PostgreSQL only (migrations need a dedicated session). */
  url?: string;
  /** Runs raw SQL with positional parameters; used by migrations, locks and tests. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; dataDir: string }
  | { kind: "pglite-memory" };

/**
 * Opens a connection. Callers normally use getDb() (lib/db/index.ts), which opens one per process;
 * tests and the admin CLI open their own.
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const [{ Pool }, { drizzle }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
    const pool = new Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process.
    pool.on("error", (error) => log("db").error(`idle PostgreSQL client error: ${error.message}`));
    const db = drizzle(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      url: target.url,
      async query<T>(sql: string, params: unknown[] = []) {
        return (await pool.query(sql, params)).rows as T[];
      },
      close: () => pool.end(),
    };
  }

  const [{ PGlite }, { drizzle }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
  ]);
  let release = () => {};
  let client: InstanceType<typeof PGlite>;
  if (target.kind === "pglite") {
    const dir = path.resolve(target.dataDir);
    release = acquireDataDirLock(dir);
    try {
      // PGlite does not create parent folders.
      fs.mkdirSync(path.join(dir, "db"), { recursive: true });
      client = await PGlite.create(path.join(dir, "db"));
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await PGlite.create();
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async close() {
      await client.close();
      release();
    },
  };
}
