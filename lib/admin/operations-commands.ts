import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { audit } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { openDatabase, runMigrations } from "@/lib/db";
import { BackupFormatError, backupDatabase, restoreDatabase } from "@/lib/operations";
import { single, CommandInputError, type AdminCommand } from "./types";

/** Backup, restore and the move from the embedded database to PostgreSQL. */

const cli = { kind: "system", name: "admin-cli" } as const;

function needDb(db: Db | undefined): Db {
  if (!db) throw new Error("This command needs the database.");
  return db;
}

const total = (tables: Record<string, number>) => Object.values(tables).reduce((a, b) => a + b, 0);
const pick = (tables: Record<string, number>) =>
  ["submissions", "attachments", "audit_events", "patients", "users"].map((t) => `${t} ${tables[t] ?? 0}`).join(", ");

async function asInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupFormatError) throw new CommandInputError(error.message);
    throw error;
  }
}

export const operationsCommands: AdminCommand[] = [
  {
    name: "backup",
    summary: "Write a consistent backup of the database to FILE (works while the portal runs).",
    usage: "backup --out FILE",
    needsDb: true,
    async run({ flags, db }) {
      const file = path.resolve(single(flags, "out")!);
      if (!fs.existsSync(path.dirname(file))) throw new CommandInputError(`--out: the folder ${path.dirname(file)} does not exist.`);
      const summary = await backupDatabase(needDb(db), file);
      await audit(needDb(db), { actor: cli, action: "database.backup", outcome: "success", details: { rows: total(summary.tables), bytes: summary.bytes } });
      return {
        text: `Backed up ${total(summary.tables)} rows of ${Object.keys(summary.tables).length} tables (${pick(summary.tables)}) to ${file} (${summary.bytes} bytes).`,
        json: summary,
      };
    },
  },
  {
    name: "restore",
    summary: "Load a backup into a new, empty installation (stop the portal, point DATA_DIR or DATABASE_URL at the new place first).",
    usage: "restore --from FILE",
    needsDb: true,
    async run({ flags, db }) {
      const file = path.resolve(single(flags, "from")!);
      const result = await asInput(() => restoreDatabase(needDb(db), file));
      await audit(needDb(db), { actor: cli, action: "database.restore", outcome: "success", details: { rows: total(result.tables) } });
      return { text: `Restored ${total(result.tables)} rows (${pick(result.tables)}) from ${file}.`, json: result };
    },
  },
  {
    name: "migrate-to-postgres",
    summary: "Copy this installation's data into an empty PostgreSQL database, then start the portal with DATABASE_URL.",
    usage: "migrate-to-postgres --database-url postgres://…",
    needsDb: true,
    async run({ flags, db }) {
      const url = single(flags, "database-url")!;
      if (!/^postgres(ql)?:\/\//.test(url)) throw new CommandInputError("--database-url must start with postgres:// or postgresql://");
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-migrate-"));
      const file = path.join(dir, "backup.json.gz");
      try {
        const backup = await backupDatabase(needDb(db), file);
        const target = await openDatabase({ kind: "postgres", url, poolSize: 2 });
        try {
          await runMigrations(target);
          const restored = await asInput(() => restoreDatabase(target.db, file));
          await audit(target.db, { actor: cli, action: "database.migrate_to_postgres", outcome: "success", details: { rows: total(restored.tables) } });
          const host = new URL(url).host;
          return {
            text: `Copied ${total(backup.tables)} rows (${pick(restored.tables)}) to PostgreSQL at ${host}.\nNow stop the portal and start it with DATABASE_URL set to that database.`,
            json: { tables: restored.tables },
          };
        } finally {
          await target.close();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
