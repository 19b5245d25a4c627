import { randomUUID } from "node:crypto";
import { unstable_rethrow } from "next/navigation";
import { AppError, codeForStatus, renderError } from "@/lib/errors";
import type { ErrorStyle } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { noteJunk } from "./junk";

/**
 * The last line of defence of every route handler: an exception nobody expected becomes a clean
 * 500 in the handler family's own shape, with a request id to quote — never Next.js' plain-text
 * 500 — and the log line names the error without its message (a failed query's message quotes
 * its SQL parameters, which may be a national ID).
 */

/** `Name (code)` of an error: never its message, which may quote patient data or SQL parameters. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return `${error.name}${typeof code === "string" && /^[A-Za-z0-9_.-]{1,40}$/.test(code) ? ` (${code})` : ""}`;
}

/**
 * How each family of endpoints answers an error: the catalogue's styles (lib/errors/catalogue.ts).
 * `claims-api` is the old name of /v1's family, kept for callers not yet renamed: it is `json`.
 */
export type ErrorFamily = ErrorStyle | "claims-api";

const styleOf = (family: ErrorFamily): ErrorStyle => (family === "claims-api" ? "json" : family);

export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return isUuid(given) ? given : randomUUID();
}

/**
 * An error answer in the family's style (also used by proxy.ts for malformed paths): the
 * catalogue code of `status`, with `reason` the finer code when it differs.
 */
export function familyError(family: ErrorFamily, status: number, reason: string, message: string, requestId: string): Response {
  const code = codeForStatus(status);
  const style = styleOf(family);
  const error = new AppError(code, message, { reason: reason !== code ? reason : undefined, extra: style === "json" ? { requestId } : {} });
  return renderError(error, style, { "X-Request-ID": requestId });
}

/** Wraps a route handler: Next.js' own control flow (redirect, notFound) passes; anything else is a clean 500. */
export function guarded<A extends unknown[]>(
  family: ErrorFamily,
  label: string,
  handler: (request: Request, ...rest: A) => Promise<Response>,
): (request: Request, ...rest: A) => Promise<Response> {
  return async (request, ...rest) => {
    try {
      return await handler(request, ...rest);
    } catch (error) {
      unstable_rethrow(error);
      const requestId = requestIdOf(request);
      if ((error as { code?: unknown })?.code === "ERR_INVALID_URL") {
        // A junk URL or Host header (Auth.js builds URLs from them): the client's fault, counted.
        noteJunk("InvalidURL");
        return familyError(family, 400, "bad_request", "The request URL cannot be read.", requestId);
      }
      // An error of the catalogue is an answer, not a fault (e.g. AccessError from authorize()).
      if (error instanceof AppError) return familyError(family, error.status, error.reason ?? error.code, error.message, requestId);
      console.error(`[${label}] request ${requestId} failed: ${describeError(error)}`);
      return familyError(family, 500, "internal", `Internal error; quote request id ${requestId}.`, requestId);
    }
  };
}

/**
 * Handlers for a catch-all route under a machine API (`app/api/exchange/[...path]/route.ts` …): an
 * unknown path is a 404 in the family's shape, not the HTML page a browser would get.
 */
export function unknownPathRoutes(family: ErrorFamily) {
  const answer = async (request: Request) => {
    const requestId = requestIdOf(request);
    return familyError(family, 404, "not_found", "No such endpoint; see the API's OpenAPI description.", requestId);
  };
  return { GET: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer };
}
