/**
 * Whether this process is shutting down, and how many HTTP requests it is answering (on
 * globalThis: read by /api/ready and proxy.ts, which live in other bundles of the same process).
 */
const KEY = Symbol.for("clinic-exchange.shutdown-state");

export interface ShutdownState {
  draining: boolean;
  /** Requests started and not yet answered (or abandoned by the client): lib/server/in-flight.ts. */
  inFlight: number;
}

export function shutdownState(): ShutdownState {
  const holder = globalThis as { [KEY]?: ShutdownState };
  holder[KEY] ??= { draining: false, inFlight: 0 };
  return holder[KEY];
}
