import { describe, expect, it } from "vitest";
import { authConfig } from "./config";
import { authBodyRefusal, withSafeCallbackUrl } from "./route-body";

const post = (type?: string) => new Request("http://portal.test/api/auth/callback/credentials", { method: "POST", headers: type === undefined ? {} : { "content-type": type }, body: new TextEncoder().encode('{"email":"x"') });

describe("Auth.js' POST endpoints take a form", () => {
  it("lets a form (and a body without type, which Auth.js does not parse) through", () => {
    expect(authBodyRefusal(post("application/x-www-form-urlencoded"))).toBeUndefined();
    expect(authBodyRefusal(post("application/x-www-form-urlencoded;charset=UTF-8"))).toBeUndefined();
    expect(authBodyRefusal(post())).toBeUndefined();
  });

  it("refuses JSON and anything else 415 in the JSON family's shape", async () => {
    for (const type of ["application/json", "text/plain; x=application/json", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded; charset=utf-16"]) {
      const answer = authBodyRefusal(post(type));
      expect(answer?.status, type).toBe(415);
      expect(await answer!.json()).toMatchObject({ error: "unsupported_media_type", reason: "content_type" });
    }
  });
});

describe("Auth.js' callbackUrl, made safe before Auth.js reads it (docs/decisions/094)", () => {
  // Real Auth.js with the portal's configuration (no database: the sign-in page and sign-out endpoints need none).
  const auth = async (request: Request) => {
    const { Auth } = await import("@auth/core");
    return Auth(request, { ...authConfig, secret: "route-body-test-secret-0123456789abcdef", basePath: "/api/auth", logger: { error: () => undefined } });
  };
  const HOSTILE = ["\t//evil.example", "@:", "%09", "https://evil.example/", "/\t/evil.example", "\\\\evil.example", "javascript:alert(1)"];

  it("Auth.js alone answers a junk callbackUrl with a 500 (why the rewrite exists)", async () => {
    const res = await auth(new Request(`http://portal.test/api/auth/signin?callbackUrl=${encodeURIComponent("\t//evil.example")}`));
    expect(res.status).toBe(500);
  });

  it("rewritten, every hostile value is answered without a 5xx and sends the browser only to the portal", async () => {
    for (const value of HOSTILE) {
      for (const request of [
        new Request(`http://portal.test/api/auth/signin?callbackUrl=${encodeURIComponent(value)}`),
        new Request("http://portal.test/api/auth/signin", { headers: { cookie: `authjs.callback-url=${encodeURIComponent(value)}` } }),
      ]) {
        const res = await auth(await withSafeCallbackUrl(request));
        expect(res.status, value).toBeLessThan(500);
        const location = res.headers.get("location");
        if (location) {
          const target = new URL(location, "http://portal.test/");
          expect(target.origin, value).toBe("http://portal.test");
          const back = target.searchParams.get("callbackUrl");
          if (back) expect(new URL(back, "http://portal.test/").origin, value).toBe("http://portal.test");
        }
      }
    }
  });

  it("leaves a safe request as it is (same object)", async () => {
    const request = new Request("http://portal.test/api/auth/signin?callbackUrl=%2Fclaims", { headers: { cookie: "authjs.callback-url=http%3A%2F%2Fportal.test%2Fclaims; other=1" } });
    expect(await withSafeCallbackUrl(request)).toBe(request);
  });

  it("keeps a POST's form body when it rewrites the query", async () => {
    const request = new Request("http://portal.test/api/auth/signout?callbackUrl=%09", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "csrfToken=x" });
    const safe = await withSafeCallbackUrl(request);
    expect(new URL(safe.url).searchParams.get("callbackUrl")).toBe("http://portal.test/");
    expect(await safe.text()).toBe("csrfToken=x");
  });
});
