import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath, safeRedirectUrl } from "./redirect";

const BASE = "https://portal.example";

/** Where a browser goes for a Location value: WHATWG parsing (tabs/newlines stripped, `\` read as `/`). */
const landsOn = (location: string) => new URL(location, `${BASE}/sign-in`).origin;

/** Pieces attackers put together (the probe's finds among them). */
const PIECES = [
  "/", "//", "\\", "/\\", "\t", "\n", "\r", "\r\n", " ", "\u0000", "\u000b", "\u000c", "\u007f", "\u00a0", "\u2028", "\u3002", "\uff0f", "\uff3c",
  ".", "..", "./", "../", "/./", "/../", "%2f", "%2F", "%5c", "%5C", "%2e", "%2E", "%252f", "%09", "%0a", "%0d", "%0D%0A", "%00", "%7f", "%", "%zz", "%e0%80",
  "@", ":", "?", "#", "&", "=", "evil.example", "evil.example:443", "https:", "http:", "javascript:", "data:", "https://evil.example", "//evil.example", "/evil.example",
  "claims", "sign-in", "api", "a b", "x", "0", "localhost", "127.0.0.1", "[::1]", "user@evil.example",
];
/** Separators weigh more (they are what moves a browser to another host); most values start with "/" like a path. */
const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("/", "\\", "\t", "\n", "\r", ".", "%2f", "%5c", "%2e", "%09", "@", ":", "evil.example") }, { weight: 2, arbitrary: fc.constantFrom(...PIECES) });
const hostile = fc.tuple(fc.constantFrom("/", "/", "/", ""), fc.array(piece, { minLength: 1, maxLength: 8 })).map(([lead, parts]) => lead + parts.join(""));

describe("safeRedirectPath: same-origin paths only", () => {
  it.each([
    "/claims",
    "/claims?status=failed&page=2",
    "/patients/1000000001",
    "/claims/0b6a6d5e-3f7e-4bb1-9d7d-0c9b3c9a1f11#timeline",
    "/",
    "/dashboard/",
    "/patients?q=%D9%85%D8%AD%D9%85%D8%AF",
  ])("keeps %s", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    ["the probe: slash, tab, slash", "/\t/evil.example"],
    ["the probe through the form", "/.//evil.example"],
    ["CR LF (a header injection, a 500 before)", "/claims\r\nSet-Cookie: x=1"],
    ["LF", "/\n/evil.example"],
    ["CR", "/\r/evil.example"],
    ["protocol-relative", "//evil.example"],
    ["backslash", "/\\evil.example"],
    ["backslash later", "/claims\\..\\..\\/evil.example"],
    ["absolute", "https://evil.example/"],
    ["scheme", "javascript:alert(1)"],
    ["no leading slash", "evil.example"],
    ["encoded slash", "/%2F/evil.example"],
    ["encoded backslash", "/%5Cevil.example"],
    ["encoded dot segment", "/%2e%2e//evil.example"],
    ["double encoding", "/%252f%252fevil.example"],
    ["encoded tab", "/%09/evil.example"],
    ["encoded CR LF in the query", "/claims?x=%0d%0aSet-Cookie:%20a=1"],
    ["dot segment", "/claims/../..//evil.example"],
    ["single dot", "/./claims"],
    ["empty segment", "/claims//evil.example"],
    ["space", "/ /evil.example"],
    ["NUL", "/\u0000/evil.example"],
    ["ideographic full stop", "/\u3002evil.example"],
    ["fullwidth solidus", "/\uff0f/evil.example"],
    ["malformed escape", "/claims%zz"],
    ["empty", ""],
    ["too long", `/${"a".repeat(2000)}`],
  ])("refuses %s", (_label, value) => {
    expect(safeRedirectPath(value)).toBeUndefined();
  });

  it("refuses what is not a string (repeated query parameters arrive as arrays)", () => {
    for (const value of [undefined, null, 42, ["/claims", "/x"], { toString: () => "/claims" }]) expect(safeRedirectPath(value)).toBeUndefined();
  });

  it("property: whatever it is given, it never throws, and what it keeps is the same text, lands on the portal and has no character a browser strips", () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ unit: "binary", maxLength: 60 }), fc.string({ maxLength: 60 }).map((s) => `/${s}`)), (value) => {
        const kept = safeRedirectPath(value);
        if (kept === undefined) return true;
        expect(kept).toBe(value);
        expect(landsOn(kept)).toBe(BASE);
        // What a browser does before parsing: it removes tabs/newlines and trims C0 controls and spaces.
        expect(kept).toMatch(/^\/[\x21-\x5b\x5d-\x7e]*$/);
        expect(landsOn(kept.replace(/[\t\n\r]/g, "").replace(/\\/g, "/"))).toBe(BASE);
        expect(new URL(kept, BASE).pathname.startsWith("//")).toBe(false);
        return true;
      }),
      { numRuns: 1_000 },
    );
  });

  it("property: every hostile combination that would leave the origin in a browser is refused", () => {
    fc.assert(
      fc.property(hostile, (value) => {
        let leaves = false;
        try {
          leaves = landsOn(value) !== BASE;
        } catch {
          leaves = true;
        }
        if (leaves) expect(safeRedirectPath(value), JSON.stringify(value)).toBeUndefined();
      }),
      { numRuns: 5_000 },
    );
  });

  it("property: plain paths built from ordinary segments and a query are kept unchanged", () => {
    const seg = fc.string({ unit: fc.constantFrom(..."abcdefxyz0123456789-_~"), minLength: 1, maxLength: 12 });
    const query = fc.array(fc.tuple(seg, seg), { maxLength: 3 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 5 }), query, (segments, q) => {
        const path = `/${segments.join("/")}${q}`;
        expect(safeRedirectPath(path)).toBe(path);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("safeRedirectUrl: Auth.js' redirect callback", () => {
  it.each([
    ["/claims", `${BASE}/claims`],
    [`${BASE}/claims?x=1`, `${BASE}/claims?x=1`],
    [BASE, `${BASE}/`],
    ["https://evil.example/claims", `${BASE}/`],
    [`${BASE}.evil.example/`, `${BASE}/`],
    [`${BASE}@evil.example/`, `${BASE}/`],
    [`${BASE}/.//evil.example`, `${BASE}/`],
    [`${BASE}/\t/evil.example`, `${BASE}/`],
    ["/\t/evil.example", `${BASE}/`],
    ["/sign-in", `${BASE}/sign-in`],
  ])("%s -> %s", (url, expected) => {
    expect(safeRedirectUrl(url, BASE)).toBe(expected);
  });

  it("property: always the portal's origin", () => {
    fc.assert(
      fc.property(fc.oneof(hostile, hostile.map((h) => `${BASE}${h}`)), (url) => {
        expect(landsOn(safeRedirectUrl(url, BASE))).toBe(BASE);
      }),
      { numRuns: 5_000 },
    );
  });
});
