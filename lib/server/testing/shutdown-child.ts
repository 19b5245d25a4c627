/**
 * A portal's background side in its own process, for the shutdown test: opens the PGlite data dir
 * CX_PGLITE_DIR, starts the outbox (CX_PLATFORM_CONFIG: JSON PlatformConfig) and installs the
 * SIGTERM handler exactly as boot does. Prints `busy N` once it holds N leases, then waits for
 * SIGTERM; its log (LOG_FORMAT=json) ends with the shutdown report.
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "./owner-reads";
import { openDatabase } from "@/lib/db/client";
import { startPipeline } from "@/lib/pipeline";
import { env } from "@/lib/env";
import { createPlatformClient, type PlatformConfig } from "@/lib/platform";
import { onShutdownSignal } from "../shutdown";

async function main() {
  const database = await openDatabase({ kind: "pglite", dataDir: process.env.CX_PGLITE_DIR! });
  const client = createPlatformClient(JSON.parse(process.env.CX_PLATFORM_CONFIG!) as PlatformConfig, { db: database.db });
  const services = startPipeline({
    db: database.db,
    client,
    config: { pollMs: 25, leaseMs: 60_000, concurrency: Number(process.env.CX_CONCURRENCY ?? 4) },
  });
  onShutdownSignal(() => ({
    db: database.db,
    services,
    // The portal's own variable, read and validated as boot reads it (lib/env.ts).
    graceMs: env().SHUTDOWN_GRACE_MS,
    close: async () => {
      await client.close();
      await database.close();
    },
  }));
  for (;;) {
    const [row] = await database.query<{ n: number }>("select count(*)::int as n from submissions where lease_owner = $1", [services.worker.owner]);
    if (Number(row?.n) > 0) {
      process.stdout.write(`busy ${row!.n}\n`);
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`shutdown-child: ${(error as Error).message}\n`);
  process.exit(1);
});
