import fs from "node:fs";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { acquireDataDirLock } from "./pglite-lock";
import { log } from "@/lib/log";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/**
 * A transaction on the portal's database. It is a Db as well, so the one executor type is `Db`:
 * every function that takes `db: Db` runs inside a transaction when given `tx` (no cast). A
 * parameter typed `tx: Tx` says the function must run inside one.
 */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

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
 * The embedded PostgreSQL's own settings (docs/decisions/100). Its buffer cache lives in the
 * portal's memory and is touched whole at start: PostgreSQL's default 128 MB made PGlite hold
 * about 290 MB resident before the first query; with 16 MB it holds about 180 MB. The files stay in
 * the operating system's page cache, so a block not in the buffer cache is a copy, not a disk read.
 */
const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB"];

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
    const db: Db = drizzle(pool, { schema });
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
  const options = { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] };
  let release = () => {};
  let client: InstanceType<typeof PGlite>;
  if (target.kind === "pglite") {
    const dir = path.resolve(target.dataDir);
    release = acquireDataDirLock(dir);
    try {
      // PGlite does not create parent folders.
      fs.mkdirSync(path.join(dir, "db"), { recursive: true });
      client = await PGlite.create(path.join(dir, "db"), options);
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await PGlite.create(options);
  }
  const db: Db = drizzle(client, { schema });
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

/** Rows of a raw SQL query on a database or transaction (node-postgres and PGlite both answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows?: T[] }).rows ?? [];
}

/**
 * The driver's own client behind a drizzle database (the pg Pool or the PGlite instance), for what
 * drizzle does not offer: LISTEN on PGlite, multi-statement scripts. Undefined when there is none.
 */
export function driverClient<T>(db: Db): T | undefined {
  // drizzle's driver databases carry `$client`; the shared PgDatabase type does not declare it.
  return Reflect.get(db, "$client") as T | undefined;
}
