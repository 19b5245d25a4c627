import type { Db } from "@/lib/db";

/** A drizzle transaction on the portal's database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that runs queries: the database or a transaction on it. */
export type Executor = Db | Tx;

/** Rows of a raw `execute()` result (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
