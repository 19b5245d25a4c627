import { sql } from "drizzle-orm";
import { driverClient, queryRows, type Db } from "@/lib/db";
import { PlatformRateLimitedError, type RateBucket } from "./errors";
import { sleep } from "./http";
import { metrics } from "@/lib/metrics";

/**
 * The platform's rate limits, shared by every portal instance through the database
 * (platform_rate_permits, platform_rate_blocks).
 *
 * One permit = one row. To take one, a transaction takes a per-bucket advisory lock, counts the
 * permits of the last window and inserts one when below the limit; otherwise the caller learns how
 * long until the oldest permit leaves the window. A platform 429 writes a block row (its
 * Retry-After) that pauses the bucket for every instance.
 *
 * Safety margin: we allow `limit - 1` per `window + marginMs`, so clock skew between instances and
 * the platform, and the network delay between taking a permit and the request arriving, cannot
 * produce a 429. Time comes from the database (`clock_timestamp()`) by default, so every instance
 * shares one clock; tests may inject a clock instead (then every instance must use the same one).
 *
 * Inside one process, callers of a bucket queue in FIFO order and only the head polls the
 * database; without that, 2 000 waiting callers would all wake and hammer the lock at once.
 *
 * Priorities (decision 043): `interactive` (default: a person waits at the counter) and `batch`
 * (visit-list runs). A batch permit is granted only (a) while the window holds fewer than
 * `batchShare` of the limit — the rest of every window stays free for interactive callers — and
 * (b) when no interactive caller waits anywhere: an interactive caller that does not get a permit
 * at once writes a row in platform_rate_waiters (its instance, until when), and the batch guard is
 * part of the same guarded INSERT, so every instance sees it. Each priority has its own in-process
 * queue, so an interactive caller never queues behind batch callers.
 */

export interface RateLimitConfig {
  limits: Record<RateBucket, number>;
  /** Platform window (60 s). */
  windowMs: number;
  /** Added to the window (default 250 ms). */
  marginMs: number;
  /** Permits kept free below the platform's limit (default 1). */
  headroom: number;
  /** "database" (default): clock_timestamp(); or a function shared by every instance (tests). */
  clock: "database" | (() => Date);
  /** Delete expired permits on every Nth permit (default 50). */
  cleanupEvery: number;
  /**
   * Most permits one database round trip may take (default 8), and only as many as interactive
   * callers of this process are queued for the bucket at that moment (they take them within
   * microseconds), and only while the window is less than half used. A reserved permit still
   * unused after `reserveTtlMs` (its caller gave up) is deleted, so it stops counting
   * (docs/decisions/070-quota-fully-usable.md). 1 turns batching off.
   */
  batch: number;
  /** How long reserved permits stay usable before they are handed back (default 150 ms; below `marginMs`). */
  reserveTtlMs: number;
  /**
   * Share of a window's permits batch callers may hold (default 0.8): with the platform's 100 per
   * minute, batch runs use at most 79 and interactive checks always find the rest free.
   */
  batchShare: number;
  /** How often a waiting batch caller looks again while an interactive caller waits (default 200 ms). */
  batchPollMs: number;
}

/** Who asks: a person at the counter (`interactive`, default) or a paced batch run (`batch`). */
export type RatePriority = "interactive" | "batch";

export const PLATFORM_RATE_LIMITS: Record<RateBucket, number> = { eligibility: 100, claims: 500, status: 1000 };

export const DEFAULT_RATE_LIMIT_CONFIG: RateLimitConfig = {
  limits: PLATFORM_RATE_LIMITS,
  windowMs: 60_000,
  marginMs: 250,
  headroom: 1,
  clock: "database",
  cleanupEvery: 50,
  batch: 8,
  reserveTtlMs: 150,
  batchShare: 0.8,
  batchPollMs: 200,
};

export type PermitDecision = { granted: true; at: Date } | { granted: false; waitMs: number; blocked: boolean };

export interface AcquireOptions {
  /** Wait for a permit (default) or throw PlatformRateLimitedError at once. */
  wait?: boolean;
  signal?: AbortSignal;
  requestId?: string;
  /** Default `interactive`. */
  priority?: RatePriority;
}

type Row = Record<string, unknown>;

const BUCKETS: ReadonlySet<string> = new Set<RateBucket>(["eligibility", "claims", "status"]);

/** PGlite (`exec`) or a node-postgres Pool (`query` without parameters): both run a multi-statement string. */
interface MultiStatementClient {
  exec?: (script: string) => Promise<{ rows: Row[] }[]>;
  query?: (script: string) => Promise<unknown>;
}

function rows(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  return queryRows<Row>(db, query);
}

function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number") return value;
  return new Date(String(value)).getTime();
}

export class PlatformRateLimiter {
  readonly config: RateLimitConfig;
  private readonly queues = new Map<string, Promise<void>>();
  /** Interactive callers of this process waiting per bucket (batch callers step aside meanwhile). */
  private readonly interactiveWaiting = new Map<RateBucket, number>();
  /** This limiter's name in platform_rate_waiters. */
  private readonly holder = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  /** Permits taken for callers queued behind the one that asked: their row ids, handed out in order. */
  private readonly reserved = new Map<RateBucket, { at: Date; ids: string[]; until: number }>();
  private granted = 0;

  constructor(
    private readonly db: Db,
    config: Partial<RateLimitConfig> = {},
  ) {
    this.config = { ...DEFAULT_RATE_LIMIT_CONFIG, ...config, limits: { ...DEFAULT_RATE_LIMIT_CONFIG.limits, ...config.limits } };
  }

  /** How many permits a window may hold here (the platform's limit minus the headroom). */
  effectiveLimit(bucket: RateBucket): number {
    return Math.max(1, this.config.limits[bucket] - this.config.headroom);
  }

  /** How many permits a window may hold before batch callers must wait. */
  batchLimit(bucket: RateBucket): number {
    return Math.max(1, Math.floor(this.effectiveLimit(bucket) * Math.min(1, Math.max(0, this.config.batchShare))));
  }

  private get spanMs(): number {
    return this.config.windowMs + this.config.marginMs;
  }

  /**
   * One attempt: a permit now, or how long to wait. `queued`: interactive callers of this process
   * queued for the bucket, this one included (only the head of the queue reserves for the others).
   */
  async tryAcquire(bucket: RateBucket, priority: RatePriority = "interactive", queued = 1): Promise<PermitDecision> {
    if (priority === "batch") {
      if ((this.interactiveWaiting.get(bucket) ?? 0) > 0) return { granted: false, waitMs: this.config.batchPollMs, blocked: false };
      const fast = await this.fastAcquire(bucket, 1, "batch");
      if (fast) return this.granted_(fast.at);
      return this.slowAcquire(bucket, "batch");
    }
    const reserve = this.reserved.get(bucket);
    if (reserve && reserve.ids.length > 0 && performance.now() < reserve.until) {
      reserve.ids.shift();
      return this.granted_(reserve.at);
    }
    // Reserve only what waits: this caller and the interactive callers queued behind it here.
    const fast = await this.fastAcquire(bucket, Math.max(1, Math.min(Math.trunc(this.config.batch), Math.trunc(queued))));
    if (fast) {
      if (fast.ids.length > 1) this.keepReserve(bucket, fast.at, fast.ids.slice(1));
      return this.granted_(fast.at);
    }
    return this.slowAcquire(bucket);
  }

  /**
   * Holds spare permits for the queued callers; whatever is left after `reserveTtlMs` (a caller
   * aborted, or a wait-false caller took the round trip elsewhere) is deleted, so the window
   * counts only permits that were used (docs/decisions/070).
   */
  private keepReserve(bucket: RateBucket, at: Date, ids: string[]): void {
    const previous = this.reserved.get(bucket);
    if (previous) void this.returnPermits(previous.ids.splice(0));
    const reserve = { at, ids, until: performance.now() + this.config.reserveTtlMs };
    this.reserved.set(bucket, reserve);
    setTimeout(() => {
      if (this.reserved.get(bucket) === reserve) this.reserved.delete(bucket);
      void this.returnPermits(reserve.ids.splice(0));
    }, this.config.reserveTtlMs).unref();
  }

  /** Deletes permits taken and never used. */
  private async returnPermits(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    this.returned += ids.length;
    await this.db.execute(sql`delete from platform_rate_permits where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`).catch(() => undefined);
  }

  /** Permits handed back unused since this limiter started (tests, metrics). */
  returned = 0;

  private granted_(at: Date): PermitDecision {
    if (++this.granted % this.config.cleanupEvery === 0) void this.cleanup().catch(() => undefined);
    return { granted: true, at };
  }

  /**
   * The common case in ONE round trip: a multi-statement simple query runs as one implicit
   * transaction, so the advisory lock holds until the insert is done, and the insert (a later
   * statement) sees every permit committed before the lock was granted. Values are inlined because
   * the simple protocol takes no parameters: the bucket is checked against the known names and the
   * numbers are integers. Returns undefined when no permit is free (the slow path then says how
   * long to wait) or when the driver offers no multi-statement call.
   */
  private async fastAcquire(bucket: RateBucket, want: number, priority: RatePriority = "interactive"): Promise<{ at: Date; ids: string[] } | undefined> {
    if (!BUCKETS.has(bucket)) throw new TypeError(`unknown rate bucket ${String(bucket)}`);
    const client = driverClient<MultiStatementClient>(this.db);
    if (!client) return undefined;
    const batch = priority === "batch";
    const limit = Math.trunc(batch ? this.batchLimit(bucket) : this.effectiveLimit(bucket));
    const span = Math.trunc(this.spanMs);
    const clock = this.config.clock;
    const now = clock === "database" ? "clock_timestamp()" : `'${clock().toISOString()}'::timestamptz`;
    // avail = free permits in the window; take `want` of them only while more than half are free.
    const insert = `insert into platform_rate_permits (bucket, at)
select '${bucket}', n.t
from (select ${now} as t) as n
cross join lateral (select ${limit} - (select count(*) from platform_rate_permits p where p.bucket = '${bucket}' and p.at > n.t - interval '${span} milliseconds') as avail) as a
cross join lateral generate_series(1, least(a.avail, case when a.avail * 2 > ${limit} then ${Math.trunc(want)} else 1 end)) as g
where not exists (select 1 from platform_rate_blocks b where b.bucket = '${bucket}' and b.until > n.t)${
      batch ? `\n  and not exists (select 1 from platform_rate_waiters w where w.bucket = '${bucket}' and w.until > n.t)` : ""
    }
returning id::text as id, (extract(epoch from at) * 1000)::float8 as at_ms`;
    let rows_: Row[] | undefined;
    if (typeof client.exec === "function" && typeof client.query === "function") {
      // PGlite runs one statement at a time inside one process (it cannot be shared between
      // processes), so a single INSERT … WHERE count < limit is atomic without the lock.
      rows_ = ((await client.query(insert)) as { rows: Row[] }).rows;
    } else if (typeof client.query === "function") {
      const results = (await client.query(`select pg_advisory_xact_lock(hashtext('cx-rate:${bucket}'));\n${insert};`)) as { rows: Row[] }[];
      rows_ = Array.isArray(results) ? results[1]?.rows : undefined;
    } else {
      return undefined;
    }
    const first = rows_?.[0];
    return first ? { at: new Date(Number(first.at_ms)), ids: (rows_ ?? []).map((r) => String(r.id)) } : undefined;
  }

  private async slowAcquire(bucket: RateBucket, priority: RatePriority = "interactive"): Promise<PermitDecision> {
    const batch = priority === "batch";
    const limit = batch ? this.batchLimit(bucket) : this.effectiveLimit(bucket);
    const key = `cx-rate:${bucket}`;
    const clock = this.config.clock;
    const decision = await this.db.transaction(async (tx) => {
      const nowRows =
        clock === "database"
          ? await rows(tx, sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms from (select pg_advisory_xact_lock(hashtext(${key}))) as l`)
          : (await rows(tx, sql`select pg_advisory_xact_lock(hashtext(${key}))`), [{ now_ms: clock().getTime() }]);
      const nowMs = Number(nowRows[0]?.now_ms);
      const now = new Date(nowMs);
      const since = new Date(nowMs - this.spanMs);
      const waiterGuard = batch
        ? sql`and not exists (select 1 from platform_rate_waiters where bucket = ${bucket} and until > ${now.toISOString()}::timestamptz)`
        : sql``;
      const inserted = await rows(
        tx,
        sql`insert into platform_rate_permits (bucket, at)
            select ${bucket}, ${now.toISOString()}::timestamptz
            where not exists (select 1 from platform_rate_blocks where bucket = ${bucket} and until > ${now.toISOString()}::timestamptz)
              ${waiterGuard}
              and (select count(*) from platform_rate_permits where bucket = ${bucket} and at > ${since.toISOString()}::timestamptz) < ${limit}
            returning id`,
      );
      if (inserted.length > 0) return { granted: true as const, at: now };
      if (batch) {
        const [waiter] = await rows(tx, sql`select 1 as one from platform_rate_waiters where bucket = ${bucket} and until > ${now.toISOString()}::timestamptz limit 1`);
        if (waiter) return { granted: false as const, waitMs: this.config.batchPollMs, blocked: false };
      }
      const [block] = await rows(
        tx,
        sql`select until from platform_rate_blocks where bucket = ${bucket} and until > ${now.toISOString()}::timestamptz`,
      );
      if (block) return { granted: false as const, waitMs: Math.max(1, toMs(block.until) - nowMs), blocked: true };
      const count = Number(
        (await rows(tx, sql`select count(*)::int as n from platform_rate_permits where bucket = ${bucket} and at > ${since.toISOString()}::timestamptz`))[0]?.n ?? 0,
      );
      // The permit that must leave the window before there is room for one more.
      const [oldest] = await rows(
        tx,
        sql`select at from platform_rate_permits where bucket = ${bucket} and at > ${since.toISOString()}::timestamptz
            order by at asc offset ${Math.max(0, count - limit)} limit 1`,
      );
      const leavesAt = oldest ? toMs(oldest.at) + this.spanMs : nowMs + 1;
      return { granted: false as const, waitMs: Math.max(1, leavesAt - nowMs + 1), blocked: false };
    });
    return decision.granted ? this.granted_(decision.at) : decision;
  }

  /**
   * A permit for one request. Waits (abortable) in FIFO order with the other callers of this
   * process and priority, or — with `wait: false` — throws PlatformRateLimitedError when none is
   * free now. An interactive caller that must wait (or is told to come back) is announced in
   * platform_rate_waiters, so batch callers of every instance step aside until it has its permit.
   */
  async acquire(bucket: RateBucket, options: AcquireOptions = {}): Promise<Date> {
    const priority = options.priority ?? "interactive";
    if (options.wait === false) {
      const decision = await this.tryAcquire(bucket, priority);
      if (decision.granted) {
        metrics().ratePermits.inc({ group: bucket });
        return decision.at;
      }
      metrics().rateWaits.inc({ group: bucket });
      // The caller comes back after waitMs (the eligibility form does): keep batch callers away until then.
      if (priority === "interactive") await this.announceWaiter(bucket, decision.waitMs + 5_000).catch(() => undefined);
      throw new PlatformRateLimitedError({ bucket, retryAfterMs: decision.waitMs, requestId: options.requestId ?? "", fromPlatform: false });
    }
    const key = `${bucket}:${priority}`;
    const previous = this.queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.queues.set(key, tail);
    let announced = false;
    if (priority === "interactive") this.interactiveWaiting.set(bucket, (this.interactiveWaiting.get(bucket) ?? 0) + 1);
    try {
      await abortable(previous, options.signal);
      for (;;) {
        options.signal?.throwIfAborted();
        const decision = await this.tryAcquire(bucket, priority, priority === "interactive" ? (this.interactiveWaiting.get(bucket) ?? 1) : 1);
        if (decision.granted) {
          metrics().ratePermits.inc({ group: bucket });
          return decision.at;
        }
        metrics().rateWaits.inc({ group: bucket });
        if (priority === "interactive") {
          await this.announceWaiter(bucket, decision.waitMs + 2_000).catch(() => undefined);
          announced = true;
        }
        await sleep(decision.waitMs, options.signal);
      }
    } finally {
      if (priority === "interactive") {
        const left = (this.interactiveWaiting.get(bucket) ?? 1) - 1;
        if (left > 0) this.interactiveWaiting.set(bucket, left);
        else this.interactiveWaiting.delete(bucket);
        if (announced && left === 0) await this.withdrawWaiter(bucket).catch(() => undefined);
      }
      release();
      if (this.queues.get(key) === tail) this.queues.delete(key);
    }
  }

  /** Marks an interactive caller of this instance as waiting for `bucket` for the next `forMs`. */
  async announceWaiter(bucket: RateBucket, forMs: number): Promise<void> {
    const clock = this.config.clock;
    const nowExpr = clock === "database" ? sql`clock_timestamp()` : sql`${clock().toISOString()}::timestamptz`;
    await this.db.execute(
      sql`insert into platform_rate_waiters as w (bucket, holder, until)
          values (${bucket}, ${this.holder}, ${nowExpr} + make_interval(secs => ${Math.max(0, forMs) / 1000}))
          on conflict (bucket, holder) do update set until = greatest(w.until, excluded.until)`,
    );
  }

  /** This instance has no interactive caller waiting for `bucket` any more. */
  async withdrawWaiter(bucket: RateBucket): Promise<void> {
    await this.db.execute(sql`delete from platform_rate_waiters where bucket = ${bucket} and holder = ${this.holder}`);
  }

  /** Whether an interactive caller (of any instance) waits for `bucket` now. */
  async interactiveWaiters(bucket: RateBucket): Promise<number> {
    const clock = this.config.clock;
    const nowExpr = clock === "database" ? sql`clock_timestamp()` : sql`${clock().toISOString()}::timestamptz`;
    const [row] = await rows(this.db, sql`select count(*)::int as n from platform_rate_waiters where bucket = ${bucket} and until > ${nowExpr}`);
    return Number(row?.n ?? 0);
  }

  /** Pauses the bucket for every instance until now + retryAfterMs (a platform 429). Never shortens a block. */
  async block(bucket: RateBucket, retryAfterMs: number): Promise<Date> {
    const reserve = this.reserved.get(bucket);
    this.reserved.delete(bucket);
    if (reserve) await this.returnPermits(reserve.ids.splice(0));
    const clock = this.config.clock;
    const nowExpr = clock === "database" ? sql`clock_timestamp()` : sql`${clock().toISOString()}::timestamptz`;
    const [row] = await rows(
      this.db,
      sql`insert into platform_rate_blocks as b (bucket, until, hits)
          values (${bucket}, ${nowExpr} + make_interval(secs => ${Math.max(0, retryAfterMs) / 1000}), 1)
          on conflict (bucket) do update set
            until = greatest(b.until, excluded.until),
            hits = case when b.until > ${nowExpr} then b.hits + 1 else 1 end
          returning until`,
    );
    return new Date(toMs(row?.until));
  }

  /** The active block of a bucket, if any. */
  async blockedUntil(bucket: RateBucket): Promise<{ until: Date; hits: number } | undefined> {
    const clock = this.config.clock;
    const nowExpr = clock === "database" ? sql`clock_timestamp()` : sql`${clock().toISOString()}::timestamptz`;
    const [row] = await rows(this.db, sql`select until, hits from platform_rate_blocks where bucket = ${bucket} and until > ${nowExpr}`);
    return row ? { until: new Date(toMs(row.until)), hits: Number(row.hits) } : undefined;
  }

  /** Deletes permits that left the window (all buckets). */
  async cleanup(): Promise<void> {
    const clock = this.config.clock;
    const nowExpr = clock === "database" ? sql`clock_timestamp()` : sql`${clock().toISOString()}::timestamptz`;
    await this.db.execute(sql`delete from platform_rate_permits where at < ${nowExpr} - make_interval(secs => ${this.spanMs / 1000})`);
    await this.db.execute(sql`delete from platform_rate_waiters where until < ${nowExpr}`);
  }
}

function abortable(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
