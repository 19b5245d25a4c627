/**
 * An outbox worker in its own process, for the crash test: `node --import tsx
 * lib/submissions/outbox/testing/worker-child.ts` with CX_DATABASE_URL (PostgreSQL) or CX_PGLITE_DIR (a
 * PGlite data dir the parent has closed), CX_PLATFORM_CONFIG (JSON PlatformConfig) and optional
 * CX_LEASE_MS / CX_CONCURRENCY / CX_POLL_AFTER_MS. Prints `ready` once started;
 * the test kills it with SIGKILL in the middle of its work.
 */
import "@/lib/server/testing/owner-reads";
import { openDatabase } from "@/lib/db/client";
import { createPlatformClient, portFor, type PlatformConfig } from "@/lib/platform";
import { startOutboxWorker } from "../worker";

async function main() {
  const url = process.env.CX_DATABASE_URL;
  const dir = process.env.CX_PGLITE_DIR;
  const config = process.env.CX_PLATFORM_CONFIG;
  if ((!url && !dir) || !config) throw new Error("CX_DATABASE_URL or CX_PGLITE_DIR, and CX_PLATFORM_CONFIG, are required");
  const database = url ? await openDatabase({ kind: "postgres", url, poolSize: 4 }) : await openDatabase({ kind: "pglite", dataDir: dir! });
  // The configured protocol's port: the REST client, or the messaging adapter over it.
  const client = portFor(createPlatformClient(JSON.parse(config) as PlatformConfig, { db: database.db }), database.db);
  startOutboxWorker({
    db: database.db,
    client,
    owner: `child-${process.pid}`,
    pollMs: 25,
    leaseMs: Number(process.env.CX_LEASE_MS ?? 1500),
    maxAttempts: 25,
    backoff: { baseMs: 10, maxMs: 150, jitter: 0.5 },
    concurrency: Number(process.env.CX_CONCURRENCY ?? 4),
    pollAfterMs: Number(process.env.CX_POLL_AFTER_MS ?? 60_000),
    log: () => {},
  });
  process.stdout.write("ready\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`worker-child: ${(error as Error).message}\n`);
  process.exit(1);
});
