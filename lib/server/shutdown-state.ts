/** Whether this process is shutting down (on globalThis: read by /api/ready in another bundle). */
const KEY = Symbol.for("clinic-exchange.shutdown-state");

export interface ShutdownState {
  draining: boolean;
}

export function shutdownState(): ShutdownState {
  const holder = globalThis as { [KEY]?: ShutdownState };
  holder[KEY] ??= { draining: false };
  return holder[KEY];
}
