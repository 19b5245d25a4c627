import fs from "node:fs";
import { openDatabase, runMigrations, lockHolder } from "@/lib/db";
import { dataDir, env } from "@/lib/env";
import { adminSocketPath, sendAdminCommand } from "./socket";
import { CommandInputError, type AdminCommand, type CommandArgs, type CommandResult } from "./types";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs one admin command where it can reach the database: directly on PostgreSQL; on PGlite,
 * directly when no portal holds the data directory, otherwise inside the running portal.
 */
export async function runAdminCommand(command: AdminCommand, args: CommandArgs): Promise<CommandResult> {
  if (!command.needsDb) return command.run(args);
  const e = env();
  if (e.DATABASE_URL) return runDirect(command, args, { kind: "postgres", url: e.DATABASE_URL, poolSize: 2 });

  const dir = dataDir(e);
  const holder = lockHolder(dir);
  if (holder === undefined) return runDirect(command, args, { kind: "pglite", dataDir: dir });

  // The portal may still be starting: give its socket a moment to appear.
  const socket = adminSocketPath(dir);
  for (let i = 0; i < 60 && !fs.existsSync(socket); i++) await sleep(500);
  if (!fs.existsSync(socket)) {
    throw new Error(`The database in ${dir} is held by process ${holder}, which does not offer the admin socket ${socket}.`);
  }
  // Standard input is read here, in the CLI, and travels with the request.
  const stdin = command.readsStdin || args.flags["password-stdin"] ? await args.stdin() : "";
  const response = await sendAdminCommand(dir, { command: command.name, flags: args.flags, stdin });
  if (response.ok) return response.result;
  if (response.inputError) throw new CommandInputError(response.message);
  throw new Error(response.message);
}

async function runDirect(command: AdminCommand, args: CommandArgs, target: Parameters<typeof openDatabase>[0]): Promise<CommandResult> {
  const database = await openDatabase(target);
  try {
    await runMigrations(database);
    return await command.run({ ...args, db: database.db });
  } finally {
    await database.close();
  }
}
