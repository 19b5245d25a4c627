import { describe, expect, it } from "vitest";
import { clientAddress, isSecureRequest, parseTrustedProxies, PEER_ADDRESS_HEADER, PEER_TLS_HEADER } from "./client-address";

const h = (values: Record<string, string>) => new Headers(values);

describe("TRUSTED_PROXIES", () => {
  it("parses nothing, a hop count or CIDR ranges, and refuses anything else", () => {
    expect(parseTrustedProxies("")).toEqual({ kind: "none" });
    expect(parseTrustedProxies("2")).toEqual({ kind: "hops", hops: 2 });
    expect(parseTrustedProxies("10.0.0.0/8, fd00::/8, 192.168.1.7").kind).toBe("cidrs");
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/prefix/);
    expect(() => parseTrustedProxies("proxy.example")).toThrow(/not an IP/);
  });

  it("by default believes no X-Forwarded-For: the connection's own address is recorded", () => {
    const headers = h({ [PEER_ADDRESS_HEADER]: "203.0.113.9", "x-forwarded-for": "6.6.6.6" });
    expect(clientAddress(headers, parseTrustedProxies(""))).toBe("203.0.113.9");
  });

  it("believes a trusted proxy's entry, and only the entries our proxies added", () => {
    const trust = parseTrustedProxies("10.0.0.0/8");
    // The client forged 6.6.6.6; our proxy (10.0.0.5) appended the address it saw.
    const viaProxy = h({ [PEER_ADDRESS_HEADER]: "10.0.0.5", "x-forwarded-for": "6.6.6.6, 198.51.100.4" });
    expect(clientAddress(viaProxy, trust)).toBe("198.51.100.4");
    // Straight from the internet: the header is the client's own words.
    const direct = h({ [PEER_ADDRESS_HEADER]: "198.51.100.4", "x-forwarded-for": "6.6.6.6" });
    expect(clientAddress(direct, trust)).toBe("198.51.100.4");
    expect(clientAddress(h({ [PEER_ADDRESS_HEADER]: "::ffff:10.1.2.3", "x-forwarded-for": "198.51.100.7" }), trust)).toBe("198.51.100.7");
    expect(clientAddress(viaProxy, parseTrustedProxies("1"))).toBe("198.51.100.4");
  });

  it("HSTS only when the request came over TLS, or a trusted proxy says so", () => {
    expect(isSecureRequest(h({ [PEER_TLS_HEADER]: "1" }), { kind: "none" })).toBe(true);
    expect(isSecureRequest(h({ [PEER_ADDRESS_HEADER]: "198.51.100.4", "x-forwarded-proto": "https" }), { kind: "none" })).toBe(false);
    expect(isSecureRequest(h({ [PEER_ADDRESS_HEADER]: "10.0.0.5", "x-forwarded-proto": "https" }), parseTrustedProxies("10.0.0.0/8"))).toBe(true);
  });
});
