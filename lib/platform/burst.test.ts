import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { createPlatformClient, type PlatformClient } from "./index";
import { claimFixture, startPlatformSandbox, type PlatformSandbox } from "./testing";

// The platform's window shortened to 1 s, the claims limit scaled to 200: the same shape as
// 500/min, fast enough for a test. Portal and sandbox are configured alike.
const WINDOW_MS = 1_000;
const LIMITS = { eligibility: 100, claims: 200, status: 1_000 };
const N = 2_000;

const serverStatuses: string[] = [];
let sbx: PlatformSandbox;
let database: Database;
let client: PlatformClient;

beforeAll(async () => {
  sbx = await startPlatformSandbox({
    limits: LIMITS,
    rateWindowMs: WINDOW_MS,
    logger: { info: (line) => serverStatuses.push(line.split(" ")[2] ?? ""), error: () => {} },
  });
  database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  // The window is 60× shorter than the platform's, so a reserved permit's lifetime shrinks with it
  // (150 ms of a 60 s window is 2.5 ms of this one; 20 ms keeps it well under the 250 ms margin):
  // a permit stamped when reserved and used much later would otherwise reach the sandbox's 1 s
  // window after its stamp left ours (docs/decisions/070).
  client = createPlatformClient(sbx.config, { db: database.db, limits: { limits: LIMITS, windowMs: WINDOW_MS, reserveTtlMs: 20 } });
});

afterAll(async () => {
  await client?.close();
  await database?.close();
  await sbx?.stop();
});

it(`a burst of ${N} claims gets no 429 and holds the rate`, async () => {
  const claims = Array.from({ length: N }, () => claimFixture());
  await client.accessToken();
  const started = Date.now();
  const results = await Promise.allSettled(claims.map((c) => client.submitClaim(c)));
  const elapsed = Date.now() - started;
  const failures = results.filter((r) => r.status === "rejected");
  expect(failures.map((f) => String((f as PromiseRejectedResult).reason)).slice(0, 3)).toEqual([]);
  expect(results.every((r) => r.status === "fulfilled" && r.value.status === 202)).toBe(true);
  expect(client.stats().rateLimited).toBe(0);
  expect(serverStatuses.filter((s) => s === "429")).toHaveLength(0);
  // (limit − 1) per (window + 250 ms): N claims cannot go faster than this.
  const spans = Math.floor((N - 1) / (LIMITS.claims - 1));
  expect(elapsed).toBeGreaterThanOrEqual(spans * (WINDOW_MS + 250) - 200);
}, 180_000);
