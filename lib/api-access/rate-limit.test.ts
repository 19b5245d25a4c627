import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { testDatabases } from "@/lib/testing/databases";
import { consumeRate, pruneRateCounters, rateHeaders } from "./rate-limit";

/** Most admitted requests inside any stretch of `windowMs` (closed at both ends: the strictest reading). */
function busiestStretch(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! > windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const at = (iso: string) => new Date(`2026-11-21T${iso}Z`);

describe.each(testDatabases())("API rate counters on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => database?.dispose());

  it("busiestStretch measures what it should (the check itself can fail)", () => {
    expect(busiestStretch([0, 100, 60_000, 60_001], 60_000)).toBe(3);
    expect(busiestStretch([0, 60_001], 60_000)).toBe(1);
  });

  it("allows exactly the limit, also under concurrency, and says honestly when to come back", async () => {
    const now = at("10:00:10");
    const results = await Promise.all(Array.from({ length: 15 }, () => consumeRate(database.db, "t:a", { limit: 10, windowMs: 60_000 }, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    const denied = results.find((r) => !r.allowed)!;
    // The ten leave the window at 10:01:10; the 6 s slice they sit in has left it by 10:01:12.
    expect(denied.retryAfterSeconds).toBe(62);
    expect(rateHeaders(denied)).toMatchObject({ "Retry-After": "62", "RateLimit-Remaining": "0" });
    expect((await consumeRate(database.db, "t:b", { limit: 10, windowMs: 60_000 }, now)).allowed).toBe(true);
    // A new clock minute is no fresh start: refused until the ten have left the window.
    expect((await consumeRate(database.db, "t:a", { limit: 10, windowMs: 60_000 }, at("10:01:00"))).allowed).toBe(false);
    expect((await consumeRate(database.db, "t:a", { limit: 10, windowMs: 60_000 }, at("10:01:11.9"))).allowed).toBe(false);
    expect((await consumeRate(database.db, "t:a", { limit: 10, windowMs: 60_000 }, at("10:01:12"))).allowed).toBe(true);
  });

  it("across a minute boundary: 120 at :50 and none more until they leave the window (a clock-minute counter admitted 238)", async () => {
    const rule = { limit: 120, windowMs: 60_000 };
    const first = await Promise.all(Array.from({ length: 130 }, () => consumeRate(database.db, "t:edge", rule, at("10:05:50"))));
    expect(first.filter((r) => r.allowed)).toHaveLength(120);
    const second = await Promise.all(Array.from({ length: 130 }, () => consumeRate(database.db, "t:edge", rule, at("10:06:05"))));
    expect(second.filter((r) => r.allowed)).toHaveLength(0);
    expect(second[0]!.retryAfterSeconds).toBe(49);
    const later = await Promise.all(Array.from({ length: 130 }, () => consumeRate(database.db, "t:edge", rule, at("10:06:54"))));
    expect(later.filter((r) => r.allowed)).toHaveLength(120);
  });

  it("no 60 s stretch admits more than the limit, with requests from two instances at random times", async () => {
    const second = database.kind === "postgres" && database.url ? await openDatabase({ kind: "postgres", url: database.url, poolSize: 4 }) : undefined;
    try {
      const rule = { limit: 30, windowMs: 60_000 };
      const start = at("11:00:00").getTime();
      let t = start;
      const admitted: number[] = [];
      let seed = 7;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      while (t < start + 4 * 60_000) {
        // Bursts and lulls: 0–4 s apart, ten at once now and then.
        t += Math.floor(random() * 4_000);
        const burst = random() < 0.1 ? 10 : 1;
        const results = await Promise.all(
          Array.from({ length: burst }, (_, i) => consumeRate(i % 2 === 0 || !second ? database.db : second.db, "t:random", rule, new Date(t))),
        );
        for (const r of results) if (r.allowed) admitted.push(t);
      }
      expect(busiestStretch(admitted, 60_000)).toBeLessThanOrEqual(30);
      // And the quota is used: over 4 minutes, well over three windows' worth was admitted.
      expect(admitted.length).toBeGreaterThan(90);
    } finally {
      await second?.close();
    }
  }, 60_000);

  it("prunes old slices", async () => {
    await pruneRateCounters(database.db, at("10:06:00"));
    const rows = await database.query<{ bucket: string }>("select bucket from api_rate_counters where window_start < '2026-11-21T10:06:00Z'");
    expect(rows).toHaveLength(0);
    const kept = await database.query<{ n: string }>("select count(*)::text as n from api_rate_counters where bucket = 't:edge'");
    expect(Number(kept[0]!.n)).toBeGreaterThan(0);
  });
});
