import { describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER, PEER_TLS_HEADER, parseTrustedProxies } from "./client-address";
import { isHostValue, trustedForwarded, withTrustedForwarding } from "./forwarded";

const h = (values: Record<string, string>) => new Headers(values);
const proxy = parseTrustedProxies("10.0.0.0/8");

describe("one trust rule for X-Forwarded-Proto and -Host", () => {
  it("a client's own X-Forwarded-Proto/-Host are not believed: our socket decides", () => {
    const direct = h({ [PEER_ADDRESS_HEADER]: "198.51.100.4", host: "portal.example:3000", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" });
    expect(trustedForwarded(direct, { kind: "none" })).toEqual({ proto: "http", host: "portal.example:3000" });
    expect(trustedForwarded(direct, proxy)).toEqual({ proto: "http", host: "portal.example:3000" });
    const out = withTrustedForwarding(new Headers({ ...Object.fromEntries(direct), "x-forwarded-port": "443" }), proxy);
    expect(out.get("x-forwarded-proto")).toBe("http");
    expect(out.get("x-forwarded-host")).toBe("portal.example:3000");
    expect(out.has("x-forwarded-port")).toBe(false);
  });

  it("our own TLS socket is https whatever the client says", () => {
    expect(trustedForwarded(h({ [PEER_TLS_HEADER]: "1", host: "portal.example", "x-forwarded-proto": "http" }), { kind: "none" }).proto).toBe("https");
  });

  it("a trusted proxy's X-Forwarded-Proto and -Host are believed (its first entry)", () => {
    const viaProxy = h({ [PEER_ADDRESS_HEADER]: "10.0.0.5", host: "internal:3000", "x-forwarded-proto": "https", "x-forwarded-host": "Portal.Example, other" });
    expect(trustedForwarded(viaProxy, proxy)).toEqual({ proto: "https", host: "portal.example" });
    expect(withTrustedForwarding(viaProxy, proxy).get("x-forwarded-host")).toBe("portal.example");
  });

  it("a junk host is never passed on", () => {
    expect(isHostValue("portal.example:443")).toBe(true);
    expect(isHostValue("[::1]:3000")).toBe(true);
    for (const bad of ["", "evil.example/path", "a b", "x".repeat(300), "host:99999999", "user@host"]) expect(isHostValue(bad), bad).toBe(false);
    const junk = h({ [PEER_ADDRESS_HEADER]: "10.0.0.5", host: "a b", "x-forwarded-host": "evil.example/x" });
    expect(trustedForwarded(junk, proxy).host).toBeUndefined();
    expect(withTrustedForwarding(junk, proxy).has("x-forwarded-host")).toBe(false);
  });

  it("Next.js' own hop of a forwarded server action (loopback socket, x-action-forwarded) keeps the host decided for the original request; nobody else's", () => {
    const hop = (peer: string, extra: Record<string, string> = { "x-action-forwarded": "1" }) =>
      h({ [PEER_ADDRESS_HEADER]: peer, host: "127.0.0.1:3210", "x-forwarded-host": "localhost:3210", origin: "http://localhost:3210", ...extra });
    expect(trustedForwarded(hop("127.0.0.1"), { kind: "none" }).host).toBe("localhost:3210");
    expect(trustedForwarded(hop("::1"), { kind: "none" }).host).toBe("localhost:3210");
    // Not from this machine's socket, or not Next.js' forward: our socket's Host, as for any client.
    expect(trustedForwarded(hop("198.51.100.4"), { kind: "none" }).host).toBe("127.0.0.1:3210");
    expect(trustedForwarded(hop("127.0.0.1", {}), { kind: "none" }).host).toBe("127.0.0.1:3210");
    const spoofedChain = h({ host: "127.0.0.1:3210", "x-forwarded-for": "127.0.0.1", "x-action-forwarded": "1", "x-forwarded-host": "evil.example" });
    expect(trustedForwarded(spoofedChain, { kind: "none" }).host).toBe("127.0.0.1:3210");
  });
});
