import { metrics } from "@/lib/metrics";
import { and, arrayOverlaps, asc, gt, lt, max } from "drizzle-orm";
import { driverClient, type Database, liveEvents } from "@/lib/db";
import { LIVE_CHANNEL } from "@/lib/submissions";

/**
 * Live status events for open browsers (Server-Sent Events), fanned out through the database so
 * that every portal instance delivers every change: `transition()` writes a `live_events` row and
 * NOTIFYs `cx_live` in the same transaction; here one hub per process LISTENs (a dedicated
 * node-postgres client, or PGlite's `listen`) and reads the rows after the last one it saw, then
 * hands each to the connections whose user's roles are in its audience. A slow fallback read
 * covers a lost LISTEN connection. Reconnecting browsers send `Last-Event-ID` and get what they
 * missed (rows are kept LIVE_EVENTS_RETENTION_MS).
 */
export interface LiveEvent {
  id: number;
  at: string;
  kind: string;
  submissionId: string | null;
  submissionKind: string | null;
  status: string | null;
  payload: Record<string, unknown> | null;
}

type Row = typeof liveEvents.$inferSelect;

const toEvent = (r: Row): LiveEvent => ({
  id: r.id,
  at: r.at.toISOString(),
  kind: r.kind,
  submissionId: r.submissionId,
  submissionKind: r.submissionKind,
  status: r.status,
  payload: r.payload,
});

interface Subscriber {
  roles: readonly string[];
  /** Ids the catch-up read already delivered. */
  caughtUp: Set<number>;
  buffer: LiveEvent[] | null;
  deliver(event: LiveEvent): void;
}

/**
 * Ids come from a sequence, and a transaction holding a smaller id can commit after a larger one
 * was read; each read looks back this many ids and skips those already seen.
 */
const LOOKBACK = 200;
const SEEN_LIMIT = 4096;

export class LiveHub {
  private readonly subscribers = new Set<Subscriber>();
  private starting?: Promise<void>;
  private lastId = 0;
  private readonly seen = new Set<number>();
  private reading = false;
  private readAgain = false;
  private unlisten?: () => Promise<void>;
  private fallback?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly options: { fallbackPollMs?: number } = {},
  ) {}

  /** Registers a connection; resolves to its unsubscribe function once it is caught up. */
  async subscribe(roles: readonly string[], afterId: number | undefined, deliver: (event: LiveEvent) => void): Promise<() => void> {
    await this.start();
    const sub: Subscriber = { roles, caughtUp: new Set(), buffer: afterId === undefined ? null : [], deliver };
    this.subscribers.add(sub);
    if (afterId !== undefined) {
      try {
        const rows = await this.database.db
          .select()
          .from(liveEvents)
          .where(and(gt(liveEvents.id, afterId), arrayOverlaps(liveEvents.audience, [...roles])))
          .orderBy(asc(liveEvents.id))
          .limit(1000);
        for (const row of rows) {
          deliver(toEvent(row));
          sub.caughtUp.add(row.id);
        }
      } finally {
        const buffered = sub.buffer ?? [];
        sub.buffer = null;
        for (const event of buffered) if (!sub.caughtUp.has(event.id)) deliver(event);
      }
    }
    return () => {
      this.subscribers.delete(sub);
    };
  }

  get size(): number {
    return this.subscribers.size;
  }

  private start(): Promise<void> {
    this.starting ??= (async () => {
      const [row] = await this.database.db.select({ id: max(liveEvents.id) }).from(liveEvents);
      this.lastId = Number(row?.id ?? 0);
      // What is already there is history, not news (catch-up reads serve it on request).
      const recent = await this.database.db
        .select({ id: liveEvents.id })
        .from(liveEvents)
        .where(gt(liveEvents.id, Math.max(0, this.lastId - LOOKBACK)));
      for (const r of recent) this.seen.add(r.id);
      await this.listen();
      this.fallback = setInterval(() => void this.read(), this.options.fallbackPollMs ?? 5_000);
      this.fallback.unref?.();
    })().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async listen(): Promise<void> {
    if (this.database.kind === "pglite") {
      const client = driverClient<{ listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> }>(this.database.db);
      if (!client) throw new Error("PGlite client missing: cannot listen for live events");
      this.unlisten = await client.listen(LIVE_CHANNEL, () => void this.read());
      return;
    }
    const { Client } = await import("pg");
    const client = new Client({ connectionString: this.database.url });
    client.on("notification", () => void this.read());
    client.on("error", () => {
      // The fallback read keeps events flowing; try to listen again shortly.
      this.unlisten = undefined;
      void client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listen().catch(() => undefined), 2_000).unref?.();
    });
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    this.unlisten = async () => {
      await client.end();
    };
  }

  /** Reads new rows and hands them out; one read at a time, repeated when asked meanwhile. */
  async read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        const rows = await this.database.db
          .select()
          .from(liveEvents)
          .where(gt(liveEvents.id, Math.max(0, this.lastId - LOOKBACK)))
          .orderBy(asc(liveEvents.id))
          .limit(1000);
        for (const row of rows) {
          if (this.seen.has(row.id)) continue;
          this.remember(row.id);
          this.lastId = Math.max(this.lastId, row.id);
          this.dispatch(toEvent(row), row.audience);
        }
        if (rows.length === 1000) this.readAgain = true;
      } while (this.readAgain && !this.closed);
    } catch {
      // Database briefly unavailable: the next notification or fallback read tries again.
    } finally {
      this.reading = false;
    }
  }

  private remember(id: number) {
    this.seen.add(id);
    if (this.seen.size > SEEN_LIMIT) {
      const cutoff = this.lastId - LOOKBACK * 2;
      for (const old of this.seen) if (old < cutoff) this.seen.delete(old);
    }
  }

  private dispatch(event: LiveEvent, audience: readonly string[]) {
    for (const sub of this.subscribers) {
      if (!sub.roles.some((r) => audience.includes(r))) continue;
      if (sub.buffer) {
        sub.buffer.push(event);
        continue;
      }
      if (sub.caughtUp.has(event.id)) continue;
      try {
        sub.deliver(event);
      } catch {
        this.subscribers.delete(sub);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.fallback) clearInterval(this.fallback);
    this.subscribers.clear();
    await this.unlisten?.().catch(() => undefined);
  }
}

const hubs = new WeakMap<Database, LiveHub>();

/** The process's hub for a database (one LISTEN connection however many browsers are open). */
export function liveHub(database: Database): LiveHub {
  let hub = hubs.get(database);
  if (!hub) {
    hub = new LiveHub(database);
    hubs.set(database, hub);
  }
  return hub;
}

export interface LiveStreamOptions {
  hub: LiveHub;
  roles: readonly string[];
  /** `Last-Event-ID` of a reconnecting browser. */
  lastEventId?: string | null;
  signal?: AbortSignal;
  heartbeatMs?: number;
}

/** The SSE response: `id`/`event`/`data` per event, a comment heartbeat, cleanup on disconnect. */
export function liveEventStream(options: LiveStreamOptions): Response {
  const encoder = new TextEncoder();
  const afterId = options.lastEventId && /^\d{1,18}$/.test(options.lastEventId) ? Number(options.lastEventId) : undefined;
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      write(`retry: 3000\n: connected\n\n`);
      metrics().eventStreams.inc();
      const closer = (retryMs: number) => {
        // The browser's EventSource reconnects after `retry` ms — to another instance, or to this one restarted.
        write(`retry: ${retryMs}\nevent: shutdown\ndata: {}\n\n`);
        cleanup();
      };
      openStreams().add(closer);
      const heartbeat = setInterval(() => write(`: ping\n\n`), options.heartbeatMs ?? 15_000);
      let unsubscribe: (() => void) | undefined;
      cleanup = () => {
        if (!open) return;
        open = false;
        openStreams().delete(closer);
        metrics().eventStreams.dec();
        clearInterval(heartbeat);
        unsubscribe?.();
        options.signal?.removeEventListener("abort", cleanup);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      options.signal?.addEventListener("abort", cleanup);
      try {
        unsubscribe = await options.hub.subscribe(options.roles, afterId, (event) =>
          write(`id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`),
        );
        if (!open) unsubscribe();
      } catch {
        write(`event: error\ndata: {"error":"unavailable"}\n\n`);
        cleanup();
      }
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}

const STREAMS = Symbol.for("clinic-exchange.live-streams");

/** The event streams open in this process (on globalThis: shared by every Next.js bundle). */
function openStreams(): Set<(retryMs: number) => void> {
  const holder = globalThis as { [STREAMS]?: Set<(retryMs: number) => void> };
  holder[STREAMS] ??= new Set();
  return holder[STREAMS];
}

/**
 * Graceful shutdown: ends every open event stream with a `retry` hint, so browsers reconnect
 * (to another instance behind the load balancer) after `retryMs`. Returns how many were closed.
 */
export function closeLiveStreams(retryMs: number): number {
  const closers = [...openStreams()];
  for (const close of closers) close(retryMs);
  return closers.length;
}

/** Deletes live events older than the retention (the timeline keeps the history). */
export async function pruneLiveEvents(database: Pick<Database, "db">, olderThan: Date): Promise<number> {
  const deleted = await database.db.delete(liveEvents).where(lt(liveEvents.at, olderThan)).returning({ id: liveEvents.id });
  return deleted.length;
}
