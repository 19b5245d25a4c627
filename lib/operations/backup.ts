/**
 * A logical backup of the portal database: every table of the `public` schema as JSON rows, read
 * in one repeatable-read transaction (a consistent snapshot while the portal keeps working), gzip
 * compressed. The same file restores into PGlite or PostgreSQL, which is also how an embedded
 * installation moves to PostgreSQL (`migrate-to-postgres`).
 *
 * Format (one JSON value a line): a header `{format, version, createdAt, migrations, tables}`, then
 * per table `{table, rows: [...]}`. bytea travels as PostgreSQL's `\x…` hex text.
 */
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import readline from "node:readline";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db";

export const BACKUP_FORMAT = "clinic-exchange-backup";
const VERSION = 1;

type Row = Record<string, unknown>;
const rows = (db: Db, query: ReturnType<typeof sql>) => queryRows<Row>(db, query);

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tableNames(db: Db): Promise<string[]> {
  const list = await rows(db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  return list.map((r) => String(r.table_name));
}

export interface BackupSummary {
  file: string;
  tables: Record<string, number>;
  migrations: number;
  bytes: number;
}

/** Writes the backup to `file` (absolute path); answers what it holds. */
export async function backupDatabase(db: Db, file: string, now = new Date()): Promise<BackupSummary> {
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  let migrations = 0;
  await db.transaction(
    async (tx) => {
      const [m] = await rows(tx, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      migrations = Number(m?.n ?? 0);
      const tables = await tableNames(tx);
      lines.push(JSON.stringify({ format: BACKUP_FORMAT, version: VERSION, createdAt: now.toISOString(), migrations, tables }));
      for (const table of tables) {
        const [data] = await rows(tx, sql.raw(`select coalesce(json_agg(t), '[]'::json)::text as rows from ${quote(table)} t`));
        const tableRows = JSON.parse(String(data?.rows ?? "[]")) as unknown[];
        counts[table] = tableRows.length;
        lines.push(JSON.stringify({ table, rows: tableRows }));
      }
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const tmp = `${file}.partial`;
  await pipeline(Readable.from(lines.map((l) => `${l}\n`)), createGzip(), fs.createWriteStream(tmp, { mode: 0o600 }));
  fs.renameSync(tmp, file);
  return { file, tables: counts, migrations, bytes: fs.statSync(file).size };
}

async function* readLines(file: string): AsyncGenerator<string> {
  const stream = fs.createReadStream(file).pipe(createGunzip());
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) if (line.trim()) yield line;
}

export class BackupFormatError extends Error {
  override name = "BackupFormatError";
}

/**
 * Loads a backup into a migrated database that holds no data of its own yet (refuses otherwise:
 * restoring over live data would mix two installations). Triggers and foreign keys are off while
 * loading (`session_replication_role = replica`, which needs a superuser or the table owner on
 * PostgreSQL), so derived tables come back exactly as they were; sequences are moved past the
 * restored ids.
 */
export async function restoreDatabase(db: Db, file: string): Promise<{ tables: Record<string, number>; migrations: number }> {
  if (!fs.existsSync(file)) throw new BackupFormatError(`No backup file at ${file}.`);
  const iterator = readLines(file);
  let header: { format?: string; version?: number; migrations?: number; tables?: string[] };
  try {
    const first = await iterator.next();
    header = JSON.parse(first.value ?? "{}");
  } catch {
    throw new BackupFormatError(`${file} is not a Clinic Exchange backup (expected a gzip file written by the backup command).`);
  }
  if (header.format !== BACKUP_FORMAT || header.version !== VERSION) throw new BackupFormatError(`${file} is not a Clinic Exchange backup of format version ${VERSION}.`);
  const [m] = await rows(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  if (Number(m?.n ?? 0) < (header.migrations ?? 0)) {
    throw new BackupFormatError(`The backup comes from a newer version (${header.migrations} migrations, this database has ${m?.n}): upgrade the portal first.`);
  }
  const present = new Set(await tableNames(db));
  // The installation's own records: if any exist, this is not a new installation.
  for (const table of ["submissions", "patients", "attachments"].filter((t) => present.has(t))) {
    const [any] = await rows(db, sql.raw(`select exists(select 1 from ${quote(table)}) as has`));
    if (any?.has === true) {
      throw new BackupFormatError(`The target database already holds data (table ${table}): restore into a new, empty installation.`);
    }
  }
  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    const t = tx;
    await t.execute(sql`set local session_replication_role = replica`);
    // Rows a new installation creates by itself (reference data of migrations, demo users, start-up
    // markers) give way to the backup's.
    for (const table of present) await t.execute(sql.raw(`delete from ${quote(table)}`));
    for await (const line of iterator) {
      const entry = JSON.parse(line) as { table: string; rows: unknown[] };
      if (!present.has(entry.table)) throw new BackupFormatError(`The backup has a table this version does not know: ${entry.table}.`);
      counts[entry.table] = entry.rows.length;
      for (let i = 0; i < entry.rows.length; i += 500) {
        const chunk = JSON.stringify(entry.rows.slice(i, i + 500));
        await t.execute(sql`insert into ${sql.raw(quote(entry.table))} select * from json_populate_recordset(null::${sql.raw(quote(entry.table))}, ${chunk}::json)`);
      }
    }
    const serials = await rows(
      t,
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and column_default like 'nextval(%'`,
    );
    for (const s of serials) {
      const table = quote(String(s.table_name));
      const column = quote(String(s.column_name));
      await t.execute(
        sql.raw(`select setval(pg_get_serial_sequence('${table}', '${String(s.column_name)}'), coalesce((select max(${column}) from ${table}), 0) + 1, false)`),
      );
    }
  });
  return { tables: counts, migrations: header.migrations ?? 0 };
}
