/**
 * Graceful shutdown (SIGTERM, SIGINT): the portal stops taking work (readiness answers 503, every
 * new request is refused 503 before any work by proxy.ts, the outbox worker leases nothing more),
 * ends live-event streams with a retry hint, lets in-flight platform calls AND in-flight HTTP
 * requests finish — each with its real answer and its audit entry — within SHUTDOWN_GRACE_MS,
 * hands its outbox leases back so another instance takes the rows, closes the database and exits 0.
 * The database closes last: closing it under requests still running answered 500 for claims
 * already saved and lost their audit rows (docs/decisions/069-shutdown-finishes-what-it-accepted.md).
 *
 * Next.js's own signal handler would exit at once: `npm start` sets NEXT_MANUAL_SIG_HANDLE so only
 * this one runs (set it too when running the standalone server under a supervisor).
 */
import { closeLiveStreams, type PipelineServices } from "@/lib/pipeline";
import { releaseLeases } from "@/lib/submissions";
import type { Db } from "@/lib/db";
import { log } from "@/lib/log";
import { shutdownState } from "@/lib/http";
import { requestsFinished } from "./in-flight";

export interface ShutdownDeps {
  db: Db;
  services?: PipelineServices;
  /** Closes what else is open (admin socket, database). */
  close?: () => Promise<void>;
  graceMs: number;
  /** The `retry:` hint sent to browsers whose event stream is closed. */
  streamRetryMs?: number;
}

export interface ShutdownReport {
  inFlight: number;
  inFlightAborted: boolean;
  /** HTTP requests being answered at SIGTERM, and whether they all finished within the grace. */
  requestsAtSignal: number;
  requestsFinished: boolean;
  leasesReleased: number;
  streamsClosed: number;
  ms: number;
}

export async function shutdown(deps: ShutdownDeps): Promise<ShutdownReport> {
  const started = performance.now();
  const state = shutdownState();
  state.draining = true;
  // Streams carry no work: end them first, so they do not count as requests to wait for.
  const streamsClosed = closeLiveStreams(deps.streamRetryMs ?? 2_000);
  const requestsAtSignal = state.inFlight;
  const [stopped, finished] = await Promise.all([
    deps.services ? deps.services.stop(deps.graceMs) : { inFlight: 0, aborted: false },
    requestsFinished(deps.graceMs),
  ]);
  const leasesReleased = deps.services ? await releaseLeases(deps.db, deps.services.worker.owner) : 0;
  await deps.close?.();
  return {
    inFlight: stopped.inFlight,
    inFlightAborted: stopped.aborted,
    requestsAtSignal,
    requestsFinished: finished,
    leasesReleased,
    streamsClosed,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Installs the SIGTERM/SIGINT handler once. A signal that arrives during shutdown forces an exit
 * only when it comes more than 2 s after the first: Ctrl-C reaches the whole process group and
 * `npm start` forwards a SIGTERM too, so two signals at once are one request to stop.
 */
export function onShutdownSignal(deps: () => ShutdownDeps, exit: (code: number) => void = (code) => process.exit(code)): void {
  let startedAt: number | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (startedAt !== undefined) {
      if (Date.now() - startedAt < 2_000) return;
      log("shutdown").warn(`${signal} again: exiting now`);
      return exit(1);
    }
    startedAt = Date.now();
    log("shutdown").info(`${signal}: stopping — no new work, letting in-flight platform calls finish`);
    shutdown(deps())
      .then((report) => {
        log("shutdown").info(report, "stopped");
        exit(0);
      })
      .catch((error: unknown) => {
        log("shutdown").error(`shutdown failed: ${(error as Error).message}`);
        exit(1);
      });
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
}
