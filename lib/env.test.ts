import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("applies defaults for an empty environment", () => {
    const e = parseEnv({});
    expect(e.PORT).toBe(3000);
    expect(e.DATA_DIR).toBe(".data");
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.DEMO_PASSWORD).toBe("demo-pass-2026");
    expect(e.CLINIC_TIME_ZONE).toBe("Asia/Riyadh");
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PLATFORM_BASE_URL: " " }).DATABASE_URL).toBeUndefined();
  });

  it("names every bad variable in one message", () => {
    let error: unknown;
    try {
      parseEnv({ PORT: "http", DATABASE_URL: "mysql://x", CLINIC_TIME_ZONE: "Mars/Base", AUTH_SECRET: "short" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL: must start with postgres://");
    expect(message).toContain("CLINIC_TIME_ZONE: must be an IANA time zone");
    expect(message).toContain("AUTH_SECRET: must be at least 32 characters");
  });
});
