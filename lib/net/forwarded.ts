import { isSecureRequest, peerIsLoopback, peerIsTrusted, type TrustedProxies } from "./client-address";

/**
 * The one trust rule for every forwarded header (docs/decisions/060-web-edge-trust-and-origin.md):
 * X-Forwarded-Proto and X-Forwarded-Host are believed only from a peer TRUSTED_PROXIES names, as
 * X-Forwarded-For already is (client-address.ts). Everything downstream of proxy.ts — Auth.js
 * (its cookies' Secure flag and __Host-/__Secure- names, its redirect URLs), Next.js' own
 * server-action host check, HSTS and the origin rule — reads the values written here.
 */

/** `host` or `host:port` — a DNS name, IPv4 or bracketed IPv6 — at most 255 characters. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function isHostValue(value: string | null | undefined): value is string {
  return !!value && value.length <= 255 && HOST.test(value);
}

export interface ForwardedView {
  proto: "http" | "https";
  /** The host the client asked for (lower case), or undefined when no usable Host was given. */
  host: string | undefined;
}

/** The scheme and host of a request as far as the trust rule allows: a trusted proxy's word, else our own socket's. */
export function trustedForwarded(headers: Headers, trust: TrustedProxies): ForwardedView {
  const proto = isSecureRequest(headers, trust) ? "https" : "http";
  const forwardedHost = (headers.get("x-forwarded-host") ?? "").split(",")[0]!.trim();
  const own = headers.get("host")?.trim();
  // Next.js forwards a server action posted to a page whose worker does not hold it to the worker
  // that does, over loopback, with the original request's headers (`x-action-forwarded`): that
  // hop's X-Forwarded-Host is the one this rule already decided for the original request.
  const nextHop = headers.get("x-action-forwarded") !== null && peerIsLoopback(headers);
  const candidate = (peerIsTrusted(headers, trust) || nextHop) && isHostValue(forwardedHost) ? forwardedHost : own;
  return { proto, host: isHostValue(candidate) ? candidate.toLowerCase() : undefined };
}

/**
 * A copy of the headers whose X-Forwarded-Proto / -Host say what the trust rule decided — a
 * client's own X-Forwarded-* never reaches Auth.js or Next.js. X-Forwarded-Port is dropped (it
 * is part of the host).
 */
export function withTrustedForwarding(headers: Headers, trust: TrustedProxies): Headers {
  const view = trustedForwarded(headers, trust);
  const copy = new Headers(headers);
  copy.set("x-forwarded-proto", view.proto);
  if (view.host) copy.set("x-forwarded-host", view.host);
  else copy.delete("x-forwarded-host");
  copy.delete("x-forwarded-port");
  return copy;
}
