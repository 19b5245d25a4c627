import { isIP } from "node:net";

/**
 * Who is calling, as far as we can know: the address of the connection's peer, and — only when
 * TRUSTED_PROXIES says the peer is our own proxy — the address that proxy reports in
 * X-Forwarded-For. By default nothing a client sends in X-Forwarded-For is believed.
 *
 * `next start` keeps a client's X-Forwarded-For and adds no peer address to it, so the start
 * script preloads scripts/lib/peer-address.cjs, which stamps every request with the socket's
 * address (PEER_ADDRESS_HEADER, overwriting whatever a client sent) and whether it came over TLS.
 */
export const PEER_ADDRESS_HEADER = "x-clinic-peer-address";
export const PEER_TLS_HEADER = "x-clinic-peer-tls";

export type TrustedProxies =
  | { kind: "none" }
  /** The last `hops` entries of X-Forwarded-For were added by our own proxies. */
  | { kind: "hops"; hops: number }
  /** Peers (and X-Forwarded-For entries) inside these ranges are our own proxies. */
  | { kind: "cidrs"; ranges: Cidr[] };

interface Cidr {
  text: string;
  bytes: number[];
  bits: number;
}

/** `""` → none; `2` → two hops; `10.0.0.0/8, 192.168.1.7, fd00::/8` → those ranges. Throws with a reason. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const value = (text ?? "").trim();
  if (value === "" || value === "0") return { kind: "none" };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new Error("a hop count must be 0–10");
    return { kind: "hops", hops };
  }
  const ranges = value.split(",").map((part) => parseCidr(part.trim()));
  return { kind: "cidrs", ranges };
}

function parseCidr(text: string): Cidr {
  const [address = "", bitsText] = text.split("/");
  const bytes = addressBytes(address);
  if (!bytes) throw new Error(`"${text.slice(0, 60)}" is not an IP address or CIDR range`);
  const max = bytes.length * 8;
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : Number.NaN;
  if (!(bits >= 0 && bits <= max)) throw new Error(`"${text.slice(0, 60)}" has a prefix length outside 0–${max}`);
  return { text, bytes, bits };
}

/** IPv4 as 4 bytes, IPv6 as 16 (IPv4-mapped IPv6 as its IPv4 bytes); undefined when not an address. */
function addressBytes(raw: string): number[] | undefined {
  const address = raw.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const kind = isIP(address);
  if (kind === 4) return address.split(".").map(Number);
  if (kind !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!.split(".").map(Number);
  const [head = "", tail] = address.split("::");
  const groups = (s: string) => (s ? s.split(":") : []);
  let parts = groups(head);
  let rest = tail === undefined ? [] : groups(tail);
  const last = (tail === undefined ? parts : rest).at(-1);
  const v4 = last && last.includes(".") ? last.split(".").map(Number) : undefined;
  if (v4) {
    const extra = [((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16)];
    if (tail === undefined) parts = [...parts.slice(0, -1), ...extra];
    else rest = [...rest.slice(0, -1), ...extra];
  }
  const fill = tail === undefined ? [] : Array(8 - parts.length - rest.length).fill("0");
  return [...parts, ...fill, ...rest].flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

function inRange(address: string, ranges: Cidr[]): boolean {
  const bytes = addressBytes(address);
  if (!bytes) return false;
  return ranges.some((r) => {
    if (r.bytes.length !== bytes.length) return false;
    let bits = r.bits;
    for (let i = 0; bits > 0; i++, bits -= 8) {
      const mask = bits >= 8 ? 255 : (255 << (8 - bits)) & 255;
      if ((bytes[i]! & mask) !== (r.bytes[i]! & mask)) return false;
    }
    return true;
  });
}

function forwardedChain(headers: Headers): string[] {
  return (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The connection's peer; without the preload (tests, `next dev`), Next.js' own X-Forwarded-For entry. */
function peerAddress(headers: Headers): string | undefined {
  return headers.get(PEER_ADDRESS_HEADER)?.trim() || forwardedChain(headers).at(-1) || undefined;
}

const LOOPBACK = ["127.0.0.0/8", "::1/128"].map(parseCidr);

/**
 * Whether the connection comes from this machine's loopback, as the socket says (the preload's
 * header; never a client's X-Forwarded-For): Next.js' own server-to-server hops.
 */
export function peerIsLoopback(headers: Headers): boolean {
  const socket = headers.get(PEER_ADDRESS_HEADER)?.trim();
  return !!socket && inRange(socket, LOOPBACK);
}

/** Whether the peer is one of our proxies, so that its X-Forwarded-* headers are believed. */
export function peerIsTrusted(headers: Headers, trust: TrustedProxies): boolean {
  if (trust.kind === "none") return false;
  if (trust.kind === "hops") return trust.hops > 0;
  const peer = peerAddress(headers);
  return !!peer && inRange(peer, trust.ranges);
}

/** The client's address for the audit log, following TRUSTED_PROXIES; at most 64 characters. */
export function clientAddress(headers: Headers, trust: TrustedProxies): string | undefined {
  const peer = peerAddress(headers);
  const usable = (a: string | undefined) => (a && addressBytes(a) ? a.slice(0, 64) : undefined);
  if (trust.kind === "none" || !headers.get(PEER_ADDRESS_HEADER)) return usable(peer);
  const chain = forwardedChain(headers);
  if (trust.kind === "hops") {
    // The peer is the last proxy; each trusted hop before it appended the address it saw.
    return usable(chain.length >= trust.hops ? chain[chain.length - trust.hops] : chain[0]) ?? usable(peer);
  }
  if (!peer || !inRange(peer, trust.ranges)) return usable(peer);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!inRange(chain[i]!, trust.ranges)) return usable(chain[i]);
  }
  return usable(chain[0]) ?? usable(peer);
}

/** Served over TLS: our own socket was TLS, or a trusted proxy says the client used https. */
export function isSecureRequest(headers: Headers, trust: TrustedProxies): boolean {
  if (headers.get(PEER_TLS_HEADER) === "1") return true;
  return peerIsTrusted(headers, trust) && (headers.get("x-forwarded-proto") ?? "").split(",")[0]!.trim().toLowerCase() === "https";
}
