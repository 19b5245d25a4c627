import { describe, expect, it } from "vitest";
import { PlatformError, PlatformProtocolError, PlatformRateLimitedError, PlatformUnavailableError } from "@/lib/platform";
import { backoffDelayMs } from "./backoff";
import { classifyFailure } from "./call-failure";

describe("retries (pure)", () => {
  it("backs off exponentially with jitter and honours Retry-After", () => {
    const policy = { baseMs: 100, maxMs: 1000, jitter: 0.5 };
    expect(backoffDelayMs(policy, 1, 0, () => 0)).toBe(50);
    expect(backoffDelayMs(policy, 1, 0, () => 1)).toBe(100);
    expect(backoffDelayMs(policy, 3, 0, () => 1)).toBe(400);
    expect(backoffDelayMs(policy, 10, 0, () => 1)).toBe(1000);
    expect(backoffDelayMs(policy, 1, 5000, () => 1)).toBe(5000);
  });

  it("sorts the platform client's errors: rejections are final, the rest retried", () => {
    const rejected = classifyFailure(new PlatformError({ status: 422, requestId: "r", code: "ERR-003", diagnostics: "bad code", field: "Claim.item[0]" }));
    expect(rejected).toMatchObject({ kind: "rejected", code: "ERR-003", status: 422, field: "Claim.item[0]" });
    expect(classifyFailure(new PlatformUnavailableError({ reason: "server", status: 503, requestId: "r", message: "x" }))).toMatchObject({ kind: "transient", reason: "server" });
    expect(classifyFailure(new PlatformRateLimitedError({ bucket: "claims", retryAfterMs: 1500, requestId: "r", fromPlatform: true }))).toMatchObject({
      kind: "transient",
      retryAfterMs: 1500,
    });
    expect(classifyFailure(new PlatformProtocolError({ status: 201, requestId: "r", message: "odd" }))).toMatchObject({ kind: "transient", reason: "protocol" });
    expect(classifyFailure(new TypeError("boom"))).toMatchObject({ kind: "transient" });
  });
});
