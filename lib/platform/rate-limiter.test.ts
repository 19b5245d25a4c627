import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { PlatformRateLimitedError } from "./errors";
import { PlatformRateLimiter, type RateLimitConfig } from "./rate-limiter";

const WINDOW_MS = 1_000;
const LIMIT = 20;
const config: Partial<RateLimitConfig> = { limits: { eligibility: LIMIT, claims: LIMIT, status: LIMIT }, windowMs: WINDOW_MS, cleanupEvery: 1_000_000 };

/** Most permits inside any window of `windowMs` (half-open, like the platform's sliding window). */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe.each(testDatabases().map((d) => [d.name, d] as [string, TestDatabase]))("rate limiter on %s", (_name, target) => {
  let database: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("busiestWindow measures what it should (the check itself can fail)", () => {
    expect(busiestWindow([0, 100, 999, 1000, 1001], 1000)).toBe(4);
    expect(busiestWindow(Array.from({ length: 21 }, (_, i) => i * 10), 1000)).toBe(21);
  });

  it("100 concurrent acquires never exceed the limit in any window, and all are served", async () => {
    const limiter = new PlatformRateLimiter(database.db, config);
    const started = Date.now();
    // When each caller actually got its permit (a batch-reserved permit may be handed out up to
    // reserveTtlMs after its row was written).
    const usedAt = await Promise.all(Array.from({ length: 100 }, () => limiter.acquire("claims").then(() => Date.now())));
    const elapsed = Date.now() - started;
    const rows = await database.query<{ at: Date | string }>("select at from platform_rate_permits where bucket = 'claims'");
    const times = rows.map((r) => new Date(r.at).getTime());
    // Every use has a row; a reserved permit nobody used is handed back.
    expect(times.length).toBeGreaterThanOrEqual(100);
    expect(times.length).toBeLessThanOrEqual(100 + limiter.config.batch - 1);
    expect(busiestWindow(times, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    expect(busiestWindow(usedAt, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    // limit − 1 per window + 250 ms: 100 permits need at least 5 full spans after the first batch.
    expect(elapsed).toBeGreaterThanOrEqual(5 * (WINDOW_MS + 250) - 100);
  });

  it("two limiter instances (two connections) share one budget", async () => {
    const second = database.kind === "postgres" && database.url ? await openDatabase({ kind: "postgres", url: database.url, poolSize: 4 }) : undefined;
    try {
      const a = new PlatformRateLimiter(database.db, config);
      const b = new PlatformRateLimiter(second?.db ?? database.db, config);
      const usedAt = await Promise.all([
        ...Array.from({ length: 20 }, () => a.acquire("status").then(() => Date.now())),
        ...Array.from({ length: 20 }, () => b.acquire("status").then(() => Date.now())),
      ]);
      expect(usedAt).toHaveLength(40);
      const rows = await database.query<{ at: Date | string }>("select at from platform_rate_permits where bucket = 'status'");
      expect(rows.length).toBeGreaterThanOrEqual(40);
      expect(busiestWindow(rows.map((r) => new Date(r.at).getTime()), WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
      expect(busiestWindow(usedAt, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    } finally {
      await second?.close();
    }
  });

  it("a block pauses the bucket: no permit without waiting, and waiting callers resume after it", async () => {
    const limiter = new PlatformRateLimiter(database.db, config);
    const other = new PlatformRateLimiter(database.db, config);
    await limiter.block("eligibility", 600);
    const decision = await other.tryAcquire("eligibility");
    expect(decision.granted).toBe(false);
    expect(decision.granted === false && decision.blocked).toBe(true);
    expect(decision.granted === false && decision.waitMs).toBeGreaterThan(300);

    const error = await other.acquire("eligibility", { wait: false, requestId: "r-1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformRateLimitedError);
    expect(error).toMatchObject({ bucket: "eligibility", fromPlatform: false, requestId: "r-1" });

    const started = Date.now();
    await other.acquire("eligibility");
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);

    // A later, shorter block never shortens the current one; hits count the 429s.
    await limiter.block("eligibility", 5_000);
    await limiter.block("eligibility", 10);
    const block = await limiter.blockedUntil("eligibility");
    expect(block?.until.getTime()).toBeGreaterThan(Date.now() + 4_000);
    expect(block?.hits).toBe(2);
  });

  it("a waiting caller can be aborted", async () => {
    const limiter = new PlatformRateLimiter(database.db, config);
    await limiter.block("eligibility", 5_000);
    const controller = new AbortController();
    const pending = limiter.acquire("eligibility", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(pending).rejects.toThrow("stop");
  });

  it("cleanup deletes permits that left the window", async () => {
    const limiter = new PlatformRateLimiter(database.db, { ...config, windowMs: 50, marginMs: 0 });
    await limiter.acquire("claims");
    await new Promise((r) => setTimeout(r, 150));
    await limiter.cleanup();
    const rows = await database.query<{ n: number }>("select count(*)::int as n from platform_rate_permits");
    expect(Number(rows[0]?.n)).toBe(0);
  });

  /** The priority tests start from an empty limiter state (earlier tests leave permits and blocks). */
  async function fresh() {
    await database.query("delete from platform_rate_permits");
    await database.query("delete from platform_rate_blocks");
    await database.query("delete from platform_rate_waiters");
  }

  it("priority: batch callers never take the interactive share of a window", async () => {
    await fresh();
    const limiter = new PlatformRateLimiter(database.db, { ...config, windowMs: 60_000 });
    // 20 − 1 headroom = 19 per window; batch may hold floor(19 × 0.8) = 15 of them.
    expect(limiter.batchLimit("claims")).toBe(15);
    let batchGranted = 0;
    for (let i = 0; i < 30; i++) {
      const decision = await limiter.tryAcquire("claims", "batch");
      if (decision.granted) batchGranted++;
    }
    expect(batchGranted).toBe(15);
    // The interactive share is still there, at once.
    for (let i = 0; i < 4; i++) expect((await limiter.tryAcquire("claims")).granted).toBe(true);
    expect((await limiter.tryAcquire("claims")).granted).toBe(false);
  });

  it("priority: a waiting interactive caller (of any instance) stops batch permits until it is served", async () => {
    await fresh();
    const a = new PlatformRateLimiter(database.db, config);
    const b = new PlatformRateLimiter(database.db, config);
    expect((await b.tryAcquire("status", "batch")).granted).toBe(true);
    await a.announceWaiter("status", 500);
    expect(await b.interactiveWaiters("status")).toBe(1);
    const refused = await b.tryAcquire("status", "batch");
    expect(refused.granted).toBe(false);
    // Interactive callers are not held back by the signal.
    expect((await b.tryAcquire("status")).granted).toBe(true);
    await a.withdrawWaiter("status");
    expect((await b.tryAcquire("status", "batch")).granted).toBe(true);
  });

  it("priority: under a saturating batch, an interactive caller goes first and batch resumes after it", async () => {
    await fresh();
    const limiter = new PlatformRateLimiter(database.db, { ...config, batchShare: 1 });
    const order: { who: "b" | "I"; at: number }[] = [];
    const stop = { done: false };
    // A batch that would take every permit of every window.
    const batch = (async () => {
      while (!stop.done) {
        await limiter.acquire("eligibility", { priority: "batch" });
        order.push({ who: "b", at: Date.now() });
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const asked = Date.now();
    await limiter.acquire("eligibility");
    const servedAt = Date.now();
    order.push({ who: "I", at: servedAt });
    await new Promise((r) => setTimeout(r, WINDOW_MS + 600));
    stop.done = true;
    await batch;
    // The interactive caller waited only for the window to free one permit (≤ one span) and no
    // batch permit was granted while it waited (one batch call may already have been at the database).
    expect(servedAt - asked).toBeLessThanOrEqual(WINDOW_MS + 250 + 400);
    expect(order.filter((x) => x.who === "b" && x.at > asked + 20 && x.at < servedAt).length).toBeLessThanOrEqual(1);
    // The batch took the window before the ask, and resumed after it.
    expect(order.filter((x) => x.who === "b" && x.at < asked).length).toBeGreaterThanOrEqual(LIMIT - 2);
    expect(order.filter((x) => x.who === "b" && x.at > servedAt).length).toBeGreaterThan(0);
    const rows = await database.query<{ at: Date | string }>("select at from platform_rate_permits where bucket = 'eligibility'");
    expect(busiestWindow(rows.map((r) => new Date(r.at).getTime()), WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it("priority: an interactive caller told to come back (wait: false) keeps batch callers away meanwhile", async () => {
    await fresh();
    const limiter = new PlatformRateLimiter(database.db, { ...config, limits: { eligibility: 3, claims: LIMIT, status: LIMIT }, windowMs: 60_000, batchShare: 1 });
    await limiter.acquire("eligibility");
    await limiter.acquire("eligibility");
    const error = await limiter.acquire("eligibility", { wait: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformRateLimitedError);
    expect(await limiter.interactiveWaiters("eligibility")).toBe(1);
    expect((await limiter.tryAcquire("eligibility", "batch")).granted).toBe(false);
  });

  it("quota fully usable: 150 checks in a burst over two instances use 99 of 100 permits; the rest hear an honest Retry-After", async () => {
    await fresh();
    const second = database.kind === "postgres" && database.url ? await openDatabase({ kind: "postgres", url: database.url, poolSize: 4 }) : undefined;
    try {
      const real = { ...config, limits: { eligibility: 100, claims: LIMIT, status: LIMIT }, windowMs: 60_000 };
      const a = new PlatformRateLimiter(database.db, real);
      const b = new PlatformRateLimiter(second?.db ?? database.db, real);
      // Front desks (wait: false) and a few waiting callers (wait: true, aborted after 2 s) on both instances.
      const abort = AbortSignal.timeout(2_000);
      const outcomes = await Promise.all(
        Array.from({ length: 150 }, (_, i) => {
          const limiter = i % 2 === 0 ? a : b;
          const call = i % 5 === 0 ? limiter.acquire("eligibility", { signal: abort }) : limiter.acquire("eligibility", { wait: false });
          return call.then(
            () => ({ ok: true as const }),
            (error: unknown) => ({ ok: false as const, retryAfterMs: error instanceof PlatformRateLimitedError ? error.retryAfterMs : undefined }),
          );
        }),
      );
      await new Promise((r) => setTimeout(r, a.config.reserveTtlMs + 100));
      const served = outcomes.filter((o) => o.ok).length;
      const [row] = await database.query<{ n: number }>("select count(*)::int as n from platform_rate_permits where bucket = 'eligibility'");
      console.log(`[rate-limiter ${database.kind}] burst of 150 over two instances: ${served} served, ${row!.n} permits counted, ${a.returned + b.returned} reservations handed back`);
      // Every counted permit was used, and all but the headroom permit of the window were.
      expect(Number(row!.n)).toBe(served);
      expect(served).toBeGreaterThanOrEqual(98);
      expect(served).toBeLessThanOrEqual(99);
      // The others are told to come back when the oldest permit leaves the window (~60 s), or were aborted waiting.
      for (const o of outcomes.filter((x) => !x.ok)) {
        if (o.retryAfterMs === undefined) continue;
        expect(o.retryAfterMs).toBeGreaterThan(50_000);
        expect(o.retryAfterMs).toBeLessThanOrEqual(61_000);
      }
    } finally {
      await second?.close();
      await fresh();
    }
  }, 30_000);

  it("reservations are only what waits, and unused ones are handed back", async () => {
    await fresh();
    const limiter = new PlatformRateLimiter(database.db, { ...config, limits: { eligibility: 100, claims: LIMIT, status: LIMIT }, windowMs: 60_000 });
    // Five queued callers, three of which give up at once: at most five permits are taken, and
    // whatever they did not use stops counting after reserveTtlMs.
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const calls = controllers.map((c) => limiter.acquire("eligibility", { signal: c.signal }).then(() => true, () => false));
    for (const c of controllers.slice(2)) c.abort();
    const served = (await Promise.all(calls)).filter(Boolean).length;
    await new Promise((r) => setTimeout(r, limiter.config.reserveTtlMs + 100));
    const [row] = await database.query<{ n: number }>("select count(*)::int as n from platform_rate_permits where bucket = 'eligibility'");
    expect(Number(row!.n)).toBe(served);
    await fresh();
  });
});
