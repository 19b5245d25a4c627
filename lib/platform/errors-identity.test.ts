import { describe, expect, it } from "vitest";
import { PlatformConfigError, PlatformError, PlatformProtocolError, PlatformRateLimitedError, PlatformUnavailableError } from "./errors";

describe("platform errors across bundles", () => {
  it("instanceof recognises a copy of the class from another bundle by its name", () => {
    // What an error thrown by the instrumentation bundle's copy of the class looks like here.
    class PlatformErrorFromOtherBundle extends Error {
      override name = "PlatformError";
      code = "ERR-002";
    }
    const foreign = new PlatformErrorFromOtherBundle("Coverage not found");
    expect(foreign instanceof PlatformError).toBe(true);
    expect(foreign instanceof PlatformUnavailableError).toBe(false);
  });

  it("does not mistake other errors for platform errors", () => {
    for (const Cls of [PlatformError, PlatformUnavailableError, PlatformRateLimitedError, PlatformProtocolError, PlatformConfigError]) {
      expect(new TypeError("x") instanceof Cls).toBe(false);
      expect({ name: Cls.name } instanceof Cls).toBe(false);
    }
  });

  it("still recognises its own instances", () => {
    const e = new PlatformConfigError("PLATFORM_CLIENT_CERT: file not found");
    expect(e instanceof PlatformConfigError).toBe(true);
    expect(e instanceof Error).toBe(true);
  });
});
