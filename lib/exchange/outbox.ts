import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Claim } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { MAX_CLAIMS_PER_BATCH, claimProcessingStatus, isResourceOf } from "@/lib/fhir";
import { adjudicatedResponse, applyPlatformNews, decisionOf, isDecision, type PlatformStatus } from "./apply";
import { auditPipeline } from "./audit";
import { backoffDelayMs, type BackoffPolicy } from "./config";
import { describeError } from "@/lib/http";
import { dueBatches, heartbeatMs, leaseDue, renewLeases } from "./lease";
import { classifyFailure, claimIdFromLocation, type CallFailure, type ExchangePlatform } from "./platform-port";
import { pollSubmission } from "./poller";
import { appendTimeline, transition, type Submission } from "./states";
import { lineWriter } from "@/lib/log";

export interface OutboxWorkerOptions {
  db: Db;
  client: ExchangePlatform;
  /**
   * The port of a facility other than the main one (decision 049): a submission goes out, and is
   * followed up, with its own facility's certificate and licence. Absent: everything uses `client`.
   */
  clientFor?: (facilityId: string) => Promise<ExchangePlatform>;
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

type Failure = CallFailure;

/**
 * The outbox: sends queued submissions, and follows up sent ones (the poller), from the database.
 * Several workers (processes, portal instances) may run on one database: leases taken with
 * `FOR UPDATE SKIP LOCKED` keep them off each other's rows, and the business identifier fixed at
 * queue time makes any unlucky double send land as ERR-005, which is reconciled.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 8;
  const batchSize = Math.min(MAX_CLAIMS_PER_BATCH, Math.max(1, options.batchSize ?? MAX_CLAIMS_PER_BATCH));
  // The main port sends batch-requests (messaging; facility ports speak the same protocol).
  const batching = batchSize > 1 && typeof options.client.submitClaimBatch === "function";
  const pollAfterMs = options.pollAfterMs ?? 60_000;
  const now = options.clock ?? (() => new Date());
  const log = options.log ?? lineWriter("warn");
  const { db, client } = options;
  const requestTimeoutMs = Math.max(1_000, Math.floor(options.leaseMs * 0.75));
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  /** Ids of the rows this worker is working on: the heartbeat keeps their leases alive. */
  const held = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let again = false;
  let stopped = false;

  const signalFor = () => AbortSignal.any([stopping.signal, AbortSignal.timeout(requestTimeoutMs)]);

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), delay);
  };

  async function tick(): Promise<void> {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    let full = false;
    try {
      let free = concurrency - inFlight.size;
      // Batches first (ports that send batch-requests): claims of one facility for one insurer, together.
      if (free > 0 && batching) {
        for (const key of await dueBatches(db, now(), free)) {
          // As many batches of this key as there are free slots and claims.
          while (free > 0) {
            const rows = await leaseDue(db, owner, now(), options.leaseMs, batchSize, key);
            if (rows.length === 0) break;
            start(rows, rows.length === 1 ? () => handle(rows[0]!) : () => handleBatch(rows));
            free--;
            if (rows.length < batchSize) break;
          }
          if (free === 0) break;
        }
        full = free === 0;
      }
      if (free > 0) {
        const rows = await leaseDue(db, owner, now(), options.leaseMs, free);
        full = rows.length === free;
        for (const row of rows) start([row], () => handle(row));
      }
    } catch (error) {
      log(`[outbox] could not read due submissions: ${describeError(error)}`);
    } finally {
      ticking = false;
    }
    if (again || full) {
      again = false;
      if (inFlight.size < concurrency) schedule(0);
      else schedule(options.pollMs);
    } else {
      schedule(options.pollMs);
    }
  }

  /** Runs one job on these leased rows, kept alive by the heartbeat until it ends. */
  function start(rows: Submission[], work: () => Promise<void>): void {
    for (const row of rows) held.add(row.id);
    const job: Promise<void> = work()
      .catch((error: unknown) => log(`[outbox] submission${rows.length > 1 ? "s" : ""} ${rows.map((r) => r.id).join(", ")}: ${describeError(error)}`))
      .finally(() => {
        for (const row of rows) held.delete(row.id);
        inFlight.delete(job);
        schedule(0);
      });
    inFlight.add(job);
  }

  /**
   * The port of a row's facility; undefined when that facility cannot connect — the row then
   * waits (and, after the attempts, fails visibly) rather than go out with another certificate.
   */
  async function portOf(row: Submission): Promise<ExchangePlatform | undefined> {
    if (!row.facilityId || !options.clientFor) return client;
    try {
      return await options.clientFor(row.facilityId);
    } catch (error) {
      log(`[outbox] submission ${row.id}: its facility cannot connect (${describeError(error)})`);
      if (row.status === "queued") await retryLater(row, { kind: "transient", reason: "facility_unavailable", retryAfterMs: 60_000 });
      return undefined;
    }
  }

  async function handle(row: Submission): Promise<void> {
    const port = await portOf(row);
    if (!port) return;
    if (row.status === "queued") return send(row, port);
    return pollSubmission({ db, client: port, clock: now, pollAfterMs, owner, signal: signalFor(), log }, row);
  }

  /** Stored as JSON by submissions.ts from the builders' Claim; anything else is a bug, not news. */
  function claimOf(row: Submission): Claim {
    if (!isResourceOf<Claim>(row.claim, "Claim")) throw new TypeError(`submission ${row.id} holds no Claim`);
    return row.claim;
  }

  async function send(row: Submission, client: ExchangePlatform): Promise<void> {
    const requestId = row.lastRequestId ?? randomUUID();
    try {
      const answer = await client.submitClaim(claimOf(row), { requestId, signal: signalFor(), waitForPermit: true });
      await accepted(row, answer, requestId);
    } catch (error) {
      await refused(row, error, requestId, client);
    }
  }

  /**
   * Claims of one facility for one insurer in batch-requests (messaging): each claim's own answer
   * or refusal is settled as if it had gone alone. When the batch as a whole is refused (not a
   * claim of it), each claim goes alone instead — a claim is never rejected for its neighbours.
   */
  async function handleBatch(rows: Submission[]): Promise<void> {
    const port = await portOf(rows[0]!);
    if (!port) {
      for (const row of rows.slice(1)) await retryLater(row, { kind: "transient", reason: "facility_unavailable", retryAfterMs: 60_000 });
      return;
    }
    const requestId = rows[0]!.lastRequestId ?? randomUUID();
    const sendable: Submission[] = [];
    for (const row of rows) {
      try {
        claimOf(row);
        sendable.push(row);
      } catch (error) {
        await refused(row, error, row.lastRequestId ?? requestId, port);
      }
    }
    let outcomes: Awaited<ReturnType<NonNullable<ExchangePlatform["submitClaimBatch"]>>>;
    try {
      outcomes = await port.submitClaimBatch!(sendable.map(claimOf), { requestId, signal: signalFor(), waitForPermit: true });
    } catch (error) {
      outcomes = sendable.map(() => ({ ok: false as const, error, batchWide: true }));
    }
    for (const [i, row] of sendable.entries()) {
      const outcome = outcomes[i] ?? { ok: false as const, error: new Error("no outcome for this claim"), batchWide: true };
      try {
        if (outcome.ok) await accepted(row, outcome.answer, requestId);
        else if (outcome.batchWide && classifyFailure(outcome.error).kind === "rejected") await send(row, port);
        else await refused(row, outcome.error, requestId, port);
      } catch (error) {
        await refused(row, error, requestId, port);
      }
    }
    await auditPipeline(db, "outbox", "submission.batch", rows[0]!, "success", { requestId, claims: rows.length }, log);
  }

  /** The platform took the claim: its id, status and (when decided in the answer) decision. */
  async function accepted(row: Submission, answer: Awaited<ReturnType<ExchangePlatform["submitClaim"]>>, requestId: string): Promise<void> {
    const platformId = answer.platformId ?? claimIdFromLocation(answer.location) ?? claimIdFromLocation(answer.data.request?.reference);
    if (!platformId) {
      // Accepted but we cannot tell where: the retry (same identifier) meets ERR-005 with a Location.
      return retryLater(row, { kind: "transient", reason: "no_location", status: answer.status, retryAfterMs: 0, requestId });
    }
    // Authorizations are decided in the answer; a platform may decide claims there too (the
    // sandbox acknowledges them `queued` and decides later).
    const decision = decisionOf(answer.data);
    const status: PlatformStatus = decision ?? (claimProcessingStatus(answer.data) as PlatformStatus | undefined) ?? "queued";
    await applyPlatformNews({ db, clock: now, pollAfterMs }, row.id, {
      status,
      platformId,
      response: decision ? answer.data : undefined,
      source: "platform",
      detail: { requestId: answer.requestId || requestId, httpStatus: answer.status, attempt: row.attempts },
    });
    await auditPipeline(db, "outbox", "submission.send", row, "success", { requestId, httpStatus: answer.status, attempt: row.attempts, platformId, status }, log);
  }

  /** A failed send: ERR-005 reconciled, other refusals rejected, everything else retried later. */
  async function refused(row: Submission, error: unknown, requestId: string, client: ExchangePlatform): Promise<void> {
    const failure = classifyFailure(error);
    if (failure.kind === "rejected" && failure.code === "ERR-005") return reconcile(row, failure, client);
    if (failure.kind === "rejected") return reject(row, failure, requestId);
    return retryLater(row, { ...failure, requestId: failure.requestId ?? requestId });
  }

  /**
   * ERR-005: the platform already holds a claim with our identifier — an earlier attempt got
   * through (its answer was lost, or the worker died). Read the platform's copy and carry on as if
   * this attempt had been answered.
   */
  async function reconcile(row: Submission, failure: Extract<Failure, { kind: "rejected" }>, client: ExchangePlatform): Promise<void> {
    try {
      let platformId = claimIdFromLocation(failure.existingLocation);
      if (!platformId) platformId = await findByIdentifier(row, client);
      if (!platformId) {
        return await retryLater(row, { kind: "transient", reason: "duplicate_unresolved", status: 409, retryAfterMs: 0, requestId: failure.requestId });
      }
      const read = await client.readClaim(platformId, { signal: signalFor(), waitForPermit: true });
      const theirs = read.data.identifier ?? [];
      if (!theirs.some((i) => i.system === row.identifierSystem && i.value === row.identifierValue)) {
        // Not our claim after all: a genuine duplicate of someone else's identifier.
        return await reject(row, failure, failure.requestId);
      }
      const status = (read.processingStatus as PlatformStatus | undefined) ?? claimProcessingStatus(read.data) ?? "queued";
      let response;
      if (isDecision(status)) response = adjudicatedResponse((await client.claimResponses(platformId, { signal: signalFor(), waitForPermit: true })).data);
      await applyPlatformNews({ db, clock: now, pollAfterMs }, row.id, {
        status,
        platformId,
        response,
        source: "platform",
        detail: { requestId: failure.requestId, reconciled: true, code: "ERR-005", attempt: row.attempts },
      });
      await auditPipeline(db, "outbox", "submission.send", row, "success", { requestId: failure.requestId, reconciled: true, attempt: row.attempts, platformId, status }, log);
    } catch (error) {
      const next = classifyFailure(error);
      await retryLater(row, next.kind === "transient" ? next : { kind: "transient", reason: "reconcile_failed", status: next.status, retryAfterMs: 0 });
    }
  }

  async function findByIdentifier(row: Submission, client: ExchangePlatform): Promise<string | undefined> {
    const created = typeof row.claim.created === "string" ? row.claim.created.slice(0, 10) : row.createdAt.toISOString().slice(0, 10);
    const bundle = await client.searchClaims({ patient: row.patientId, createdOnOrAfter: created }, { signal: signalFor(), waitForPermit: true });
    const match = (bundle.data.entry ?? [])
      .map((e) => e.resource)
      .find((c) => c?.identifier?.some((i) => i.system === row.identifierSystem && i.value === row.identifierValue));
    return match?.id;
  }

  /** The platform said no (ERR-001…004 or another 4xx): `rejected` with its reasons; never retried. */
  async function reject(row: Submission, failure: Extract<Failure, { kind: "rejected" }>, requestId: string | undefined): Promise<void> {
    const at = now();
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(submissions).where(eq(submissions.id, row.id)).for("update");
      if (!current || current.status !== "queued") return;
      const reason = { code: failure.code, status: failure.status, diagnostics: failure.diagnostics, resolution: failure.resolution, field: failure.field };
      await transition(
        tx,
        current,
        "rejected",
        "platform",
        { requestId: failure.requestId ?? requestId, httpStatus: failure.status, code: failure.code, attempt: current.attempts },
        { errors: [reason], nextAttemptAt: null, leaseOwner: null, leaseUntil: null, decidedAt: at },
        at,
      );
    });
    log(`[outbox] submission ${row.id} rejected by the platform (${failure.code ?? failure.status})`);
    await auditPipeline(db, "outbox", "submission.send", row, "denied", { requestId: failure.requestId ?? requestId, httpStatus: failure.status, code: failure.code, attempt: row.attempts }, log);
  }

  /** Transient trouble: try again later with the same identifier, or give up after maxAttempts. */
  async function retryLater(row: Submission, failure: Extract<Failure, { kind: "transient" }>): Promise<void> {
    const at = now();
    let gaveUp = false;
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(submissions).where(eq(submissions.id, row.id)).for("update");
      // Someone else finished or took over the row meanwhile (our lease ran out): theirs wins.
      if (!current || current.status !== "queued" || current.leaseOwner !== owner) return;
      const error = {
        status: failure.status,
        code: undefined,
        diagnostics: `platform unavailable (${failure.reason}${failure.status ? ` ${failure.status}` : ""})`,
      };
      if (current.attempts >= options.maxAttempts) {
        gaveUp = true;
        await transition(
          tx,
          current,
          "failed",
          "system",
          { requestId: failure.requestId, reason: failure.reason, httpStatus: failure.status, attempt: current.attempts },
          { errors: [error], nextAttemptAt: null, leaseOwner: null, leaseUntil: null },
          at,
        );
        return;
      }
      const delay = backoffDelayMs(options.backoff, current.attempts, failure.retryAfterMs, options.random);
      await tx
        .update(submissions)
        .set({ nextAttemptAt: new Date(at.getTime() + delay), leaseOwner: null, leaseUntil: null, errors: [error], updatedAt: at })
        .where(eq(submissions.id, current.id));
      await appendTimeline(tx, {
        submissionId: current.id,
        from: "queued",
        to: "queued",
        source: "system",
        requestId: failure.requestId,
        detail: { event: "retry", attempt: current.attempts, reason: failure.reason, httpStatus: failure.status, retryInMs: delay },
        at,
      });
    });
    if (gaveUp) log(`[outbox] submission ${row.id} failed after ${row.attempts} attempts (${failure.reason})`);
    await auditPipeline(
      db,
      "outbox",
      "submission.send",
      row,
      "failure",
      { requestId: failure.requestId, reason: failure.reason, httpStatus: failure.status, attempt: row.attempts, gaveUp },
      log,
    );
  }

  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating || held.size === 0) return;
    beating = true;
    renewLeases(db, owner, [...held], now(), options.leaseMs)
      .catch((error: unknown) => log(`[outbox] could not renew leases: ${describeError(error)}`))
      .finally(() => (beating = false));
  }, heartbeatMs(options.leaseMs));
  heartbeat.unref();

  schedule(0);

  return {
    owner,
    wake: () => schedule(0),
    async stop(graceMs = 10_000) {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Leases of work still finishing stay alive until it has finished.
      const stopBeating = () => clearInterval(heartbeat);
      while (ticking) await new Promise((r) => setTimeout(r, 5));
      const count = inFlight.size;
      const pending = Promise.allSettled([...inFlight]);
      let aborted = false;
      const abort = setTimeout(() => {
        aborted = true;
        stopping.abort();
      }, graceMs);
      await pending;
      clearTimeout(abort);
      stopBeating();
      return { inFlight: count, aborted };
    },
  };
}
