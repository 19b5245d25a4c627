import { startAdminSocket } from "@/lib/admin/socket";
import { seedDemoUsers } from "@/lib/auth/demo-users";
import { getDatabase, getDb } from "@/lib/db";
import { DataDirBusyError } from "@/lib/db/pglite-lock";
import { dataDir, env, usesSandbox } from "@/lib/env";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs once when the server process starts (instrumentation.ts): validates the configuration,
 * opens and migrates the database, seeds the demo users on a new sandbox installation and, on
 * PGlite, opens the admin socket for the CLI.
 */
export async function boot(): Promise<void> {
  const e = env();
  // The admin CLI may hold the PGlite directory for a moment; wait for it rather than fail.
  for (let attempt = 0; ; attempt++) {
    try {
      await getDatabase();
      break;
    } catch (error) {
      if (!(error instanceof DataDirBusyError) || attempt >= 60) throw error;
      await sleep(500);
    }
  }
  const database = await getDatabase();
  if (usesSandbox(e)) {
    if (await seedDemoUsers(database.db, e.DEMO_PASSWORD)) console.log("[boot] seeded the demo users");
  }
  if (database.kind === "pglite") await startAdminSocket(dataDir(e), getDb);
}

/** A portal that cannot open its database must not half-run: say why and exit. */
export async function bootOrExit(): Promise<void> {
  try {
    await boot();
  } catch (error) {
    console.error(`[boot] the portal cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
}
