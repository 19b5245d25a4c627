/**
 * Counts the HTTP requests this process is answering, pages and actions included, so shutdown
 * keeps the database open until each one has its real answer and its audit entry
 * (docs/decisions/069-shutdown-finishes-what-it-accepted.md). Node's `http.server.request.start`
 * channel reports every request on the server Next.js runs; the response's `close` event fires
 * once, whether it finished or the client went away.
 */
import diagnostics from "node:diagnostics_channel";
import type { ServerResponse } from "node:http";
import { shutdownState } from "@/lib/http";

const KEY = Symbol.for("clinic-exchange.in-flight-counter");

export function startInFlightCounter(): void {
  const holder = globalThis as { [KEY]?: boolean };
  if (holder[KEY]) return;
  holder[KEY] = true;
  const state = shutdownState();
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { response } = message as { response: ServerResponse };
    state.inFlight++;
    response.once("close", () => {
      state.inFlight = Math.max(0, state.inFlight - 1);
    });
  });
}

/** Resolves once no request is in flight (true) or after `timeoutMs` (false). */
export async function requestsFinished(timeoutMs: number, pollMs = 20): Promise<boolean> {
  const state = shutdownState();
  const deadline = performance.now() + timeoutMs;
  while (state.inFlight > 0) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}
