import { describe, expect, it } from "vitest";
import { ConfigError, childEnvironment, parseEnv } from "./env";

describe("parseEnv", () => {
  it("applies defaults for an empty environment", () => {
    const e = parseEnv({});
    expect(e.PORT).toBe(3000);
    expect(e.DATA_DIR).toBe(".data");
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.DEMO_PASSWORD).toBe("demo-pass-2026");
    expect(e.CLINIC_TIME_ZONE).toBe("Asia/Riyadh");
  });

  it("chooses the platform protocol: rest by default, messaging on request, nothing else", () => {
    expect(parseEnv({}).PLATFORM_PROTOCOL).toBe("rest");
    expect(parseEnv({ PLATFORM_PROTOCOL: "messaging", PROVIDER_LICENSE: "10000000000988" })).toMatchObject({ PLATFORM_PROTOCOL: "messaging", PROVIDER_LICENSE: "10000000000988" });
    expect(() => parseEnv({ PLATFORM_PROTOCOL: "soap" })).toThrow(/PLATFORM_PROTOCOL: must be rest or messaging/);
    expect(() => parseEnv({ PROVIDER_LICENSE: "a licence" })).toThrow(/PROVIDER_LICENSE/);
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

  // One policy for every area: the feature settings once handled a bad value three ways (stop,
  // warn and default, 503 at the first request); now each one stops the start, named.
  it.each([
    ["OUTBOX_LEASE_MS", "soon"],
    ["OUTBOX_CONCURRENCY", "65"],
    ["EXCHANGE_API_RATE_PER_MINUTE", "0"],
    ["CLAIMS_API_RATE_PER_MINUTE", "lots"],
    ["GATEWAY_RATE_PER_MINUTE", "-1"],
    ["GATEWAY_AGENTS", "ClaimLinc=billing"],
    ["PORTAL_URL", "ftp://portal"],
    ["LOG_LEVEL", "loud"],
  ])("stops on a bad %s and names it", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`- ${name}: `));
  });

  it("maps the feature sections", () => {
    const e = parseEnv({ GATEWAY_AGENTS: "ClaimLinc=claim", CLAIMS_API_RATE_PER_MINUTE: "60", OUTBOX_MAX_ATTEMPTS: "3" });
    expect(e.GATEWAY_AGENTS.get("ClaimLinc")).toBe("claim");
    expect(e.CLAIMS_API_RATE_PER_MINUTE).toBe(60);
    expect(e.OUTBOX_MAX_ATTEMPTS).toBe(3);
    expect(e.EXCHANGE_API_RATE_PER_MINUTE).toBe(120);
  });
});

describe("childEnvironment", () => {
  it("passes this environment on, with overrides set and undefined ones removed, without touching process.env", () => {
    process.env.CX_CHILD_ENV_PROBE = "kept";
    process.env.CX_CHILD_ENV_DROP = "dropped";
    try {
      const child = childEnvironment({ CX_CHILD_ENV_NEW: "set", CX_CHILD_ENV_DROP: undefined });
      expect(child.CX_CHILD_ENV_PROBE).toBe("kept");
      expect(child.CX_CHILD_ENV_NEW).toBe("set");
      expect("CX_CHILD_ENV_DROP" in child).toBe(false);
      expect(process.env.CX_CHILD_ENV_DROP).toBe("dropped");
      expect(process.env.CX_CHILD_ENV_NEW).toBeUndefined();
    } finally {
      delete process.env.CX_CHILD_ENV_PROBE;
      delete process.env.CX_CHILD_ENV_DROP;
    }
  });
});
