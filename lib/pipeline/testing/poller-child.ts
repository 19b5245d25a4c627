/**
 * The message poller alone in its own process, for the inbox fault test (docs/decisions/096): `node --import
 * tsx lib/pipeline/testing/poller-child.ts` with CX_DATABASE_URL (PostgreSQL), CX_PLATFORM_CONFIG
 * (JSON PlatformConfig, messaging) and optional CX_POLL_COUNT / CX_INBOX_LEASE_MS, and
 * CX_FAULT_POINT (replied | stored | applied) + CX_FAULT_AFTER (n): the child SIGKILLs itself at
 * the n-th time it reaches that point (saying `fault <point>` first). No outbox
 * worker runs here, so nothing but the inbox can bring a decision in. Prints `ready`; the test
 * kills it with SIGKILL at random moments and starts another.
 */
import fs from "node:fs";
import "@/lib/server/testing/owner-reads";
import { openDatabase } from "@/lib/db/client";
import { createPlatformClient, portFor, type PlatformConfig } from "@/lib/platform";
import { startMessagePoller } from "../message-poller";
import type { PollingPort } from "@/lib/platform";

async function main() {
  const url = process.env.CX_DATABASE_URL;
  const config = process.env.CX_PLATFORM_CONFIG;
  if (!url || !config) throw new Error("CX_DATABASE_URL and CX_PLATFORM_CONFIG are required");
  const database = await openDatabase({ kind: "postgres", url, poolSize: 4 });
  const port = portFor(createPlatformClient(JSON.parse(config) as PlatformConfig, { db: database.db }), database.db) as unknown as PollingPort;
  let hits = 0;
  startMessagePoller({
    db: database.db,
    client: port,
    intervalMs: 20,
    pollAfterMs: 60_000,
    pollCount: Number(process.env.CX_POLL_COUNT ?? 3),
    inbox: { leaseMs: Number(process.env.CX_INBOX_LEASE_MS ?? 400), maxAttempts: 50, backoff: { baseMs: 20, maxMs: 200 } },
    log: () => {},
    faultPoint: (point) => {
      if (point !== process.env.CX_FAULT_POINT) return;
      hits++;
      if (hits < Number(process.env.CX_FAULT_AFTER ?? 1)) return;
      fs.writeSync(1, `fault ${point}\n`);
      process.kill(process.pid, "SIGKILL");
    },
  });
  process.stdout.write("ready\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`poller-child: ${(error as Error).message}\n`);
  process.exit(1);
});
