import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "@/lib/testing/databases";
import { consumeRate, pruneRateCounters, rateHeaders } from "./rate-limit";

describe.each(testDatabases())("API rate counters on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  it("allows exactly the limit per window, also under concurrency", async () => {
    const now = new Date("2026-11-21T10:00:10Z");
    const results = await Promise.all(Array.from({ length: 15 }, () => consumeRate(database.db, "t:a", { limit: 10, windowMs: 60_000 }, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    const denied = results.find((r) => !r.allowed)!;
    expect(denied.retryAfterSeconds).toBe(50);
    expect(rateHeaders(denied)).toMatchObject({ "Retry-After": "50", "RateLimit-Remaining": "0" });
    // Another bucket and the next window start fresh.
    expect((await consumeRate(database.db, "t:b", { limit: 10, windowMs: 60_000 }, now)).allowed).toBe(true);
    expect((await consumeRate(database.db, "t:a", { limit: 10, windowMs: 60_000 }, new Date("2026-11-21T10:01:00Z"))).allowed).toBe(true);
  });

  it("prunes old windows", async () => {
    await pruneRateCounters(database.db, new Date("2026-11-21T10:01:00Z"));
    const rows = await database.query<{ n: string }>("select count(*)::text as n from api_rate_counters");
    expect(rows[0]!.n).toBe("1");
  });
});
