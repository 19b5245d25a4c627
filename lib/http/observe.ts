/**
 * One access-log line and the HTTP metrics for every request the portal answers, pages included,
 * without touching each route: Node's `http.server.*` diagnostics channels report the start and
 * the finish of every request on the server Next.js runs.
 *
 * The route is logged as a pattern: any path segment holding a digit (ids, national ids, dates) is
 * replaced with `[id]`, and the query string is dropped, so no identifier reaches a log line.
 */
import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";

const FAMILIES: [RegExp, string][] = [
  [/^\/_next\//, "static"],
  [/^\/api\/exchange(\/|$)/, "exchange-api"],
  [/^\/v1(\/|$)/, "claims-api"],
  [/^\/oauth(\/|$)/, "oauth"],
  [/^\/query(\/|$)/, "gateway"],
  [/^\/fhir(\/|$)/, "gateway"],
  [/^\/api\/webhooks(\/|$)/, "webhooks"],
  [/^\/api\/events(\/|$)/, "events"],
  [/^\/api\/auth(\/|$)/, "auth"],
  [/^\/api\/(health|ready)(\/|$)/, "health"],
  [/^\/api\/metrics(\/|$)/, "metrics"],
  [/^\/api\/attachments(\/|$)/, "attachments"],
];

/** The route family of a path: a small fixed set, fit for a metric label. */
export function routeFamily(pathname: string): string {
  for (const [pattern, family] of FAMILIES) if (pattern.test(pathname)) return family;
  return "pages";
}

/** `/claims/3f0c…/edit?x=1` → `/claims/[id]/edit`. */
export function routePattern(url: string): string {
  const pathname = url.split("?")[0]!.split("#")[0]!;
  const segments = pathname.split("/").map((s) => ((/\d/.test(s) && !/^v\d$/.test(s)) || s.length > 40 ? "[id]" : s));
  return segments.join("/").slice(0, 200) || "/";
}

const STARTED = Symbol("cx-started");
const KEY = Symbol.for("clinic-exchange.http-observer");

export function startHttpObserver(): void {
  const holder = globalThis as { [KEY]?: boolean };
  if (holder[KEY]) return;
  holder[KEY] = true;
  const http = log("http");
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { response } = message as { response: ServerResponse & { [STARTED]?: number } };
    response[STARTED] = performance.now();
  });
  diagnostics.subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse & { [STARTED]?: number } };
    const durationMs = response[STARTED] === undefined ? 0 : performance.now() - response[STARTED];
    const route = routePattern(request.url ?? "/");
    const family = routeFamily(route);
    const status = response.statusCode;
    const m = metrics();
    m.httpRequests.inc({ family, status: String(status) });
    m.httpDuration.observe({ family }, durationMs / 1000);
    if (family === "webhooks") m.webhooks.inc({ status: String(status) });
    if (family === "static") return;
    const requestId = response.getHeader("x-request-id");
    const entry = { requestId: typeof requestId === "string" ? requestId : undefined, method: request.method, route, status, durationMs: Math.round(durationMs * 10) / 10 };
    if (status >= 500) http.error(entry, "request");
    else if (family === "health" || family === "metrics") http.debug(entry, "request");
    else http.info(entry, "request");
  });
}
