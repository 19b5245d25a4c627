import { describe, expect, it } from "vitest";
import { crossOriginReason, needsSameOrigin } from "./origin";

const h = (values: Record<string, string>) => new Headers(values);
const PORTAL = "http://localhost:3301";

describe("the origin rule", () => {
  it("applies to every non-safe method outside the machine APIs", () => {
    for (const [method, path] of [["POST", "/api/attachments"], ["POST", "/eligibility"], ["POST", "/api/auth/callback/credentials"], ["DELETE", "/api/anything"], ["PUT", "/"], ["POST", "/patients/x.png"], ["POST", "/favicon.ico"]]) {
      expect(needsSameOrigin(method!, path!), `${method} ${path}`).toBe(true);
    }
    for (const [method, path] of [["GET", "/api/attachments/x"], ["HEAD", "/"], ["POST", "/api/exchange/claims/submit"], ["POST", "/query"], ["POST", "/fhir/Claim"], ["POST", "/oauth/token"], ["POST", "/api/webhooks/platform"], ["GET", "/v1/claims"]]) {
      expect(needsSameOrigin(method!, path!), `${method} ${path}`).toBe(false);
    }
    // A prefix is a whole segment: /queryx is not the gateway.
    expect(needsSameOrigin("POST", "/queryx")).toBe(true);
  });

  it("passes the portal's configured origin, by Origin or by Sec-Fetch-Site", () => {
    expect(crossOriginReason(h({ origin: PORTAL }), PORTAL)).toBeUndefined();
    expect(crossOriginReason(h({ origin: PORTAL, "sec-fetch-site": "same-origin" }), PORTAL)).toBeUndefined();
    expect(crossOriginReason(h({ "sec-fetch-site": "same-origin" }), PORTAL)).toBeUndefined();
    expect(crossOriginReason(h({ origin: "https://portal.example" }), "https://portal.example:443/")).toBeUndefined();
    expect(crossOriginReason(h({ origin: "https://Portal.Example" }), "https://portal.example")).toBeUndefined();
  });

  it("compares with the configured origin, not the request's Host: a forged Host with a matching Origin is refused", () => {
    // What the probe sent: Host evil.example and Origin http://evil.example (a DNS-rebinding page sends exactly that).
    expect(crossOriginReason(h({ host: "evil.example", origin: "http://evil.example" }), PORTAL)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ host: "evil.example", "x-forwarded-host": "evil.example", origin: "http://evil.example" }), PORTAL)).toBe("origin_mismatch");
    // Another name of the same machine is another origin.
    expect(crossOriginReason(h({ host: "127.0.0.1:3301", origin: "http://127.0.0.1:3301" }), PORTAL)).toBe("origin_mismatch");
  });

  it("refuses another site, a sibling subdomain, another port, null, junk and no origin at all", () => {
    expect(crossOriginReason(h({ origin: "https://evil.example" }), PORTAL)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "http://localhost:9301" }), PORTAL)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "https://sandbox.portal.example" }), "https://portal.example")).toBe("origin_mismatch");
    // The other scheme on the same host is another origin.
    expect(crossOriginReason(h({ origin: "https://localhost:3301" }), PORTAL)).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "http://portal.example" }), "https://portal.example")).toBe("origin_mismatch");
    expect(crossOriginReason(h({ origin: "null" }), PORTAL)).toBe("origin_null");
    expect(crossOriginReason(h({ origin: "%zz" }), PORTAL)).toBe("origin_malformed");
    expect(crossOriginReason(h({ origin: "file://localhost:3301" }), PORTAL)).toBe("origin_malformed");
    expect(crossOriginReason(h({}), PORTAL)).toBe("no_origin");
    expect(crossOriginReason(h({ "sec-fetch-site": "same-site" }), PORTAL)).toBe("fetch_site");
    expect(crossOriginReason(h({ "sec-fetch-site": "cross-site", origin: PORTAL }), PORTAL)).toBe("fetch_site");
    expect(crossOriginReason(h({ "sec-fetch-site": "none" }), PORTAL)).toBe("fetch_site");
    expect(crossOriginReason(h({ origin: PORTAL }), undefined)).toBe("no_public_origin");
  });
});
