/**
 * The answer to a request that arrives once SIGTERM did: 503 with Retry-After, before any work
 * (docs/decisions/069-shutdown-finishes-what-it-accepted.md). proxy.ts calls it for every path, so
 * it stays free of the database and the modules' entries; each API family gets its own error
 * shape (JSON, OperationOutcome, RFC 6749), pages and actions a short page.
 */
import { familyError, shutdownState, type ErrorFamily } from "@/lib/http";

/** Seconds a client should wait: the load balancer has taken this instance out by then. */
export const DRAINING_RETRY_AFTER_SECONDS = 2;

export function isDraining(): boolean {
  return shutdownState().draining;
}

export function drainingResponse(family: ErrorFamily | undefined, requestId: string): Response {
  const message = `This instance is shutting down; nothing was done. Retry in ${DRAINING_RETRY_AFTER_SECONDS} s.`;
  const response = family
    ? familyError(family, 503, "shutting_down", message, requestId)
    : new Response(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Restarting</title></head><body><p>${message}</p><p dir="rtl" lang="ar">يُعاد تشغيل هذا الخادم؛ لم يُنفَّذ شيء. أعد المحاولة بعد ${DRAINING_RETRY_AFTER_SECONDS} ثانية.</p></body></html>`,
        { status: 503, headers: { "content-type": "text/html; charset=utf-8", "X-Request-ID": requestId } },
      );
  response.headers.set("Retry-After", String(DRAINING_RETRY_AFTER_SECONDS));
  response.headers.set("Cache-Control", "no-store");
  response.headers.set("Connection", "close");
  return response;
}
