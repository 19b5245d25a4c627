import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readLimitedBody } from "@/lib/http/body";
import { MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES, checkLimits, checkSet, formatBytes } from "./limits";

const MB = 1024 * 1024;

describe("attachment limits", () => {
  it("10 MB a file, 5 files, 20 MB in all", () => {
    expect([MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES]).toEqual([10 * MB, 5, 20 * MB]);
    expect(checkLimits([], 10 * MB)).toBeUndefined();
    expect(checkLimits([], 10 * MB + 1)).toBe("tooLarge");
    expect(checkLimits([], 0)).toBe("empty");
    expect(checkLimits([1, 1, 1, 1], 1)).toBeUndefined();
    expect(checkLimits([1, 1, 1, 1, 1], 1)).toBe("tooMany");
    expect(checkLimits([10 * MB, 9 * MB], 1 * MB)).toBeUndefined();
    expect(checkLimits([10 * MB, 9 * MB], 1 * MB + 1)).toBe("totalTooLarge");
    expect(checkSet([10 * MB, 10 * MB])).toBeUndefined();
    expect(checkSet([10 * MB, 10 * MB, 1])).toBe("totalTooLarge");
    expect(checkSet([1, 1, 1, 1, 1, 1])).toBe("tooMany");
    expect(formatBytes(11 * MB)).toBe("11.0 MB");
    expect(formatBytes(2048)).toBe("2 KB");
    expect(formatBytes(11 * MB, "ar")).toBe("11.0 ميغابايت");
    expect(formatBytes(2048, "ar")).toBe("2 كيلوبايت");
  });
});

function streamRequest(chunks: Uint8Array[], headers: Record<string, string> = {}): Request {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[pulled++];
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return new Request("http://localhost/api/attachments", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readLimitedBody", () => {
  it("reads a body within the limit", async () => {
    const bytes = await readLimitedBody(streamRequest([new Uint8Array([1, 2]), new Uint8Array([3])]), 3);
    expect([...bytes]).toEqual([1, 2, 3]);
  });

  it("refuses at once when Content-Length announces too much", async () => {
    await expect(readLimitedBody(streamRequest([new Uint8Array(1)], { "content-length": "11" }), 10)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("stops reading as soon as a streamed body passes the limit", async () => {
    let served = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        served++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const req = new Request("http://localhost/x", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readLimitedBody(req, 4096)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(served).toBeLessThan(10);
  });
});
