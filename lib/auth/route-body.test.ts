import { describe, expect, it } from "vitest";
import { authBodyRefusal } from "./route-body";

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
