import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";

/**
 * The databases a database test runs on: always an in-memory PGlite, and PostgreSQL as well when
 * TEST_DATABASE_URL is set (CI sets it when PostgreSQL answers). Each PostgreSQL test database is
 * created fresh and dropped afterwards, so runs never see each other's rows.
 */
export interface TestDatabase {
  name: string;
  open(): Promise<Database & { dispose(): Promise<void> }>;
}

export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [
    {
      name: "pglite",
      async open() {
        const database = await openDatabase({ kind: "pglite-memory" });
        await runMigrations(database);
        return Object.assign(database, { dispose: () => database.close() });
      },
    },
  ];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    list.push({
      name: "postgres",
      async open() {
        const { Client } = await import("pg");
        const dbName = `cx_test_${randomBytes(6).toString("hex")}`;
        const admin = new Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`create database ${dbName}`);
        await admin.end();
        const url = new URL(adminUrl);
        url.pathname = `/${dbName}`;
        const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 4 });
        await runMigrations(database);
        return Object.assign(database, {
          async dispose() {
            await database.close();
            const cleanup = new Client({ connectionString: adminUrl });
            await cleanup.connect();
            await cleanup.query(`drop database if exists ${dbName} with (force)`);
            await cleanup.end();
          },
        });
      },
    });
  }
  return list;
}
