import { randomUUID } from "node:crypto";
import { headers } from "next/headers";

export interface RequestContext {
  requestId: string;
  ip?: string;
  userAgent?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads who is calling from a set of request headers (proxy.ts sets x-request-id). */
export function contextFromHeaders(h: Headers): RequestContext {
  const given = h.get("x-request-id");
  const forwarded = h.get("x-forwarded-for")?.split(",")[0]?.trim();
  return {
    requestId: given && UUID.test(given) ? given : randomUUID(),
    ip: forwarded || h.get("x-real-ip") || undefined,
    userAgent: h.get("user-agent") ?? undefined,
  };
}

/** The context of the request being served (server components, actions, route handlers). */
export async function requestContext(): Promise<RequestContext> {
  return contextFromHeaders(await headers());
}
