import { describe, expect, it } from "vitest";
import { BodyReadError, readLimitedBody, unstorableTextPath } from "./body";

describe("unstorableTextPath", () => {
  it("finds NUL and unpaired surrogates in values and keys, with their path", () => {
    expect(unstorableTextPath({ a: "fine", b: [{ c: "x\u0000y" }] })).toBe("b[0].c");
    expect(unstorableTextPath({ item: ["\uD800"] })).toBe("item[0]");
    expect(unstorableTextPath({ ok: { ["bad\u0000key"]: 1 } })).toBe("ok");
    expect(unstorableTextPath("\uDC00")).toBe("");
  });
  it("accepts what PostgreSQL stores, including paired surrogates (emoji)", () => {
    expect(unstorableTextPath({ name: "نورة 😀", n: 1, z: null, list: [true] })).toBeUndefined();
  });
});

describe("readLimitedBody", () => {
  it("reports a broken stream as BodyReadError", async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("client went away"));
      },
    });
    const request = new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readLimitedBody(request, 100)).rejects.toBeInstanceOf(BodyReadError);
  });
});
