import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { env } from "@/lib/env";
import { isUuid } from "@/lib/ids";
import { clientAddress, type TrustedProxies } from "@/lib/net";

export interface RequestContext {
  requestId: string;
  ip?: string;
  userAgent?: string;
}

/**
 * Reads who is calling from a set of request headers (proxy.ts sets x-request-id). The address
 * follows TRUSTED_PROXIES: a client's own X-Forwarded-For is never believed by default.
 */
export function contextFromHeaders(h: Headers, trust: TrustedProxies = trustedProxies()): RequestContext {
  const given = h.get("x-request-id");
  return {
    requestId: isUuid(given) ? given : randomUUID(),
    ip: clientAddress(h, trust),
    userAgent: h.get("user-agent")?.slice(0, 500) ?? undefined,
  };
}

/** TRUSTED_PROXIES; none when the configuration cannot be read (the start refuses it anyway). */
function trustedProxies(): TrustedProxies {
  try {
    return env().TRUSTED_PROXIES;
  } catch {
    return { kind: "none" };
  }
}

/** The context of the request being served (server components, actions, route handlers). */
export async function requestContext(): Promise<RequestContext> {
  return contextFromHeaders(await headers());
}
