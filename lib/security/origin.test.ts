import { describe, expect, it } from "vitest";
import { crossOriginReason, needsSameOrigin } from "./origin";

const h = (values: Record<string, string>) => new Headers(values);
const HOST = { proto: "http" as const, host: "localhost:3301" };
const TLS = (host: string) => ({ proto: "https" as const, host });

describe("the origin rule", () => {
  it("applies to every non-safe method outside the machine APIs", () => {
    for (const [method, path] of [["POST", "/api/attachments"], ["POST", "/eligibility"], ["POST", "/api/auth/callback/credentials"], ["DELETE", "/api/anything"], ["PUT", "/"]]) {
      expect(needsSameOrigin(method!, path!), `${method} ${path}`).toBe(true);
    }
    for (const [method, path] of [["GET", "/api/attachments/x"], ["HEAD", "/"], ["POST", "/api/exchange/claims/submit"], ["POST", "/query"], ["POST", "/fhir/Claim"], ["POST", "/oauth/token"], ["POST", "/api/webhooks/platform"], ["GET", "/v1/claims"]]) {
      expect(needsSameOrigin(method!, path!), `${method} ${path}`).toBe(false);
    }
    // A prefix is a whole segment: /queryx is not the gateway.
    expect(needsSameOrigin("POST", "/queryx")).toBe(true);
  });

  it("passes the portal's own origin, by Origin or by Sec-Fetch-Site", () => {
    expect(crossOriginReason(h({ origin: `http://${HOST.host}` }), HOST)).toBeUndefined();
    expect(crossOriginReason(h({ origin: `http://${HOST.host}`, "sec-fetch-site": "same-origin" }), HOST)).toBeUndefined();
    expect(crossOriginReason(h({ "sec-fetch-site": "same-origin" }), HOST)).toBeUndefined();
    expect(crossOriginReason(h({ origin: "https://portal.example" }), TLS("portal.example:443"))).toBeUndefined();
    expect(crossOriginReason(h({ origin: "https://Portal.Example" }), TLS("portal.example"))).toBeUndefined();
  });

  it("refuses another site, a sibling subdomain, another port, null, junk and no origin at all", () => {
    expect(crossOriginReason(h({ origin: "https://evil.example" }), HOST)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "http://localhost:9301" }), HOST)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "https://sandbox.portal.example" }), TLS("portal.example"))).toBe("origin_mismatch");
    // The other scheme on the same host is another origin.
    expect(crossOriginReason(h({ origin: "https://localhost:3301" }), HOST)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "http://portal.example" }), TLS("portal.example"))).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "null" }), HOST)).toBe("origin_null");
    expect(crossOriginReason(h({ origin: "%zz" }), HOST)).toBe("origin_malformed");
    expect(crossOriginReason(h({ origin: `file://${HOST.host}` }), HOST)).toBe("origin_malformed");
    expect(crossOriginReason(h({}), HOST)).toBe("no_origin");
    expect(crossOriginReason(h({ "sec-fetch-site": "same-site" }), HOST)).toBe("fetch_site");
    expect(crossOriginReason(h({ "sec-fetch-site": "cross-site", origin: `http://${HOST.host}` }), HOST)).toBe("fetch_site");
    expect(crossOriginReason(h({ "sec-fetch-site": "none" }), HOST)).toBe("fetch_site");
    expect(crossOriginReason(h({ origin: `http://${HOST.host}` }), { proto: "http", host: undefined })).toBe("unknown_host");
  });
});
