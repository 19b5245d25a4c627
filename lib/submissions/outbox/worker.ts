import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "@/lib/db";
import { MAX_CLAIMS_PER_BATCH } from "@/lib/fhir";
import type { BackoffPolicy } from "./backoff";
import { describeError } from "@/lib/http";
import { dueBatches, heartbeatMs, leaseDue, renewLeases } from "../lease";
import type { Submission } from "../states";
import { type PlatformPort } from "@/lib/platform";
import { followUpPace } from "./follow-up";
import { handleBatch, handleRow } from "./send";
import type { OutboxContext } from "./settle";
import type { PreSendEligibility } from "./eligibility";
import { lineWriter } from "@/lib/log";

export interface OutboxWorkerOptions {
  db: Db;
  client: PlatformPort;
  /**
   * The port of a facility other than the main one (decision 049): a submission goes out, and is
   * followed up, with its own facility's certificate and licence. Absent: everything uses `client`.
   */
  clientFor?: (facilityId: string) => Promise<PlatformPort>;
  /** Names this worker in leases and the timeline; default host:pid:random. */
  owner?: string;
  clock?: () => Date;
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
  backoff: BackoffPolicy;
  /** Requests in flight at once (default 8); a batch-request counts as one. */
  concurrency?: number;
  /**
   * Claims per batch-request when the port can send batches (messaging): queued claims of one
   * facility for one insurer go together, up to this many (default and maximum 200); 1 = never.
   */
  batchSize?: number;
  /** Follow-up of sent/pended submissions after this much silence (default 60 s). */
  pollAfterMs?: number;
  random?: () => number;
  /** Default: the portal log (lib/log). Messages carry submission ids and codes, never patient data. */
  log?: (message: string) => void;
  /**
   * The eligibility check before a claim or authorization is sent (docs/decisions/124): the process
   * passes lib/eligibility's; absent (most tests), rows are sent as they are.
   */
  preSendEligibility?: PreSendEligibility;
}

export interface OutboxWorker {
  readonly owner: string;
  /**
   * Stops taking work and resolves after the in-flight work has finished (requests are aborted
   * after `graceMs`): how many were in flight, and whether the grace ran out.
   */
  stop(graceMs?: number): Promise<{ inFlight: number; aborted: boolean }>;
  /** Looks for due work now instead of at the next poll. */
  wake(): void;
}

/**
 * The outbox: sends queued submissions, and follows up sent ones (the poller), from the database.
 * Several workers (processes, portal instances) may run on one database: leases taken with
 * `FOR UPDATE SKIP LOCKED` keep them off each other's rows, and the business identifier fixed at
 * queue time makes any unlucky double send land as ERR-005, which is reconciled.
 *
 * Its pieces: the context every piece of work gets (`contextOf`), the jobs in flight and the leases
 * the heartbeat keeps alive (`jobsOf`), the loop that leases due rows (`tick`), and the work on
 * them — sending and following up (send.ts), settling each answer or failure
 * (settle.ts).
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const stopping = new AbortController();
  const ctx = contextOf(options, stopping.signal);
  const concurrency = options.concurrency ?? 8;
  const batchSize = Math.min(MAX_CLAIMS_PER_BATCH, Math.max(1, options.batchSize ?? MAX_CLAIMS_PER_BATCH));
  // The main port sends batch-requests (messaging; facility ports speak the same protocol).
  const batching = batchSize > 1 && typeof options.client.submitClaimBatch === "function";
  const jobs = jobsOf(ctx, options.leaseMs, () => schedule(0));
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let again = false;
  let stopped = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), delay);
  };

  /** Leases due rows up to the free slots and starts their work; batches first where the port sends them. */
  async function leaseWork(): Promise<boolean> {
    let free = concurrency - jobs.inFlight.size;
    let full = false;
    // Batches first (ports that send batch-requests): claims of one facility for one insurer, together.
    if (free > 0 && batching) {
      for (const key of await dueBatches(ctx.db, ctx.now(), free)) {
        // As many batches of this key as there are free slots and claims.
        while (free > 0) {
          const rows = await leaseDue(ctx.db, ctx.owner, ctx.now(), options.leaseMs, batchSize, key);
          if (rows.length === 0) break;
          jobs.start(rows, rows.length === 1 ? () => handleRow(ctx, rows[0]!) : () => handleBatch(ctx, rows));
          free--;
          if (rows.length < batchSize) break;
        }
        if (free === 0) break;
      }
      full = free === 0;
    }
    if (free > 0) {
      const rows = await leaseDue(ctx.db, ctx.owner, ctx.now(), options.leaseMs, free);
      full = rows.length === free;
      for (const row of rows) jobs.start([row], () => handleRow(ctx, row));
    }
    return full;
  }

  /** One look for due work; looks again at once while there was more than room, else after pollMs. */
  async function tick(): Promise<void> {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    let full = false;
    try {
      full = await leaseWork();
    } catch (error) {
      ctx.log(`[outbox] could not read due submissions: ${describeError(error)}`);
    } finally {
      ticking = false;
    }
    if (again || full) {
      again = false;
      if (jobs.inFlight.size < concurrency) schedule(0);
      else schedule(options.pollMs);
    } else {
      schedule(options.pollMs);
    }
  }

  schedule(0);

  return {
    owner: ctx.owner,
    wake: () => schedule(0),
    async stop(graceMs = 10_000) {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Leases of work still finishing stay alive until it has finished.
      while (ticking) await new Promise((r) => setTimeout(r, 5));
      const count = jobs.inFlight.size;
      const pending = Promise.allSettled([...jobs.inFlight]);
      let aborted = false;
      const abort = setTimeout(() => {
        aborted = true;
        stopping.abort();
      }, graceMs);
      await pending;
      clearTimeout(abort);
      jobs.stopHeartbeat();
      return { inFlight: count, aborted };
    },
  };
}

/** The context of this worker's work: who it is, its clock, log and limits, and a signal per platform call. */
function contextOf(options: OutboxWorkerOptions, stopping: AbortSignal): OutboxContext {
  const requestTimeoutMs = Math.max(1_000, Math.floor(options.leaseMs * 0.75));
  return {
    db: options.db,
    client: options.client,
    ...(options.clientFor ? { clientFor: options.clientFor } : {}),
    ...(options.preSendEligibility ? { preSendEligibility: options.preSendEligibility } : {}),
    owner: options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    now: options.clock ?? (() => new Date()),
    log: options.log ?? lineWriter("warn"),
    maxAttempts: options.maxAttempts,
    backoff: options.backoff,
    ...(options.random ? { random: options.random } : {}),
    // The silence poll adapts to the outstanding work (follow-up.ts); POLL_AFTER_MS is its ceiling.
    followUpAfter: followUpPace(options.db, options.pollAfterMs ?? 60_000),
    signal: () => AbortSignal.any([stopping, AbortSignal.timeout(requestTimeoutMs)]),
  };
}

/**
 * The jobs in flight and the rows they hold: a heartbeat renews the leases of held rows every
 * third of the lease, so a live worker never loses a row mid-call; `done` runs after each job.
 */
function jobsOf(ctx: OutboxContext, leaseMs: number, done: () => void) {
  const inFlight = new Set<Promise<void>>();
  /** Ids of the rows this worker is working on: the heartbeat keeps their leases alive. */
  const held = new Set<string>();

  /** Runs one job on these leased rows, kept alive by the heartbeat until it ends. */
  function start(rows: Submission[], work: () => Promise<void>): void {
    for (const row of rows) held.add(row.id);
    const job: Promise<void> = work()
      .catch((error: unknown) => ctx.log(`[outbox] submission${rows.length > 1 ? "s" : ""} ${rows.map((r) => r.id).join(", ")}: ${describeError(error)}`))
      .finally(() => {
        for (const row of rows) held.delete(row.id);
        inFlight.delete(job);
        done();
      });
    inFlight.add(job);
  }

  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating || held.size === 0) return;
    beating = true;
    renewLeases(ctx.db, ctx.owner, [...held], ctx.now(), leaseMs)
      .catch((error: unknown) => ctx.log(`[outbox] could not renew leases: ${describeError(error)}`))
      .finally(() => (beating = false));
  }, heartbeatMs(leaseMs));
  heartbeat.unref();

  return { inFlight, start, stopHeartbeat: () => clearInterval(heartbeat) };
}
