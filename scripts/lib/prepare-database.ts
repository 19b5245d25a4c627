/**
 * Creates and migrates the embedded PGlite database in a process of its own, then exits (npm
 * start runs it before the portal when the data directory has no database yet). PGlite's first
 * initialisation holds about 500 MB of memory it never gives back (WebAssembly memory only grows);
 * done here, the portal opens an existing database and never carries it (docs/decisions/100).
 */
import { closeDatabase, getDatabase } from "@/lib/db";

async function main(): Promise<void> {
  // Opens the database the environment names (here: PGlite in DATA_DIR) and applies the migrations.
  await getDatabase();
  await closeDatabase();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[start] preparing the database failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
