import { describe, expect, it } from "vitest";
import { GatewayConfigError, agentNames, parseGatewayAgents, parseGatewayConfig, resolveAgent } from "./config";

describe("gateway configuration", () => {
  it("parses brand names and always accepts the role names", () => {
    const config = parseGatewayConfig({ GATEWAY_AGENTS: " ClaimLinc=claim, RecordLinc=record,AuthLinc=authorization,NotifyLinc=notification," });
    expect(resolveAgent(config, "ClaimLinc")).toBe("claim");
    expect(resolveAgent(config, "NotifyLinc")).toBe("notification");
    expect(resolveAgent(config, "claim")).toBe("claim");
    expect(resolveAgent(config, "authorization")).toBe("authorization");
    expect(resolveAgent(config, "claimlinc")).toBeUndefined();
    expect(resolveAgent(config, "__proto__")).toBeUndefined();
    expect(agentNames(config)).toEqual(["ClaimLinc", "RecordLinc", "AuthLinc", "NotifyLinc", "claim", "record", "authorization", "notification"]);
    expect(config.ratePerMinute).toBe(300);
    expect(config.providerOrgId).toBe("clinic-001");
    expect(config.allowSandboxTestIds).toBe(true);
  });

  it("works with no brand names", () => {
    expect(parseGatewayAgents(undefined).size).toBe(0);
    expect(parseGatewayAgents("  ").size).toBe(0);
    expect(agentNames(parseGatewayConfig({}))).toEqual(["claim", "record", "authorization", "notification"]);
  });

  it.each([
    ["ClaimLinc", /not Brand=role/],
    ["ClaimLinc=billing", /"billing" is not a role/],
    ["claim=record", /role name/],
    ["A=claim,A=record", /given twice/],
    ["1Bad=claim", /not a valid agent name/],
    ["Has Space=claim", /not a valid agent name/],
  ])("refuses GATEWAY_AGENTS=%s with a clear message", (value, message) => {
    expect(() => parseGatewayConfig({ GATEWAY_AGENTS: value })).toThrow(GatewayConfigError);
    expect(() => parseGatewayConfig({ GATEWAY_AGENTS: value })).toThrow(message);
    expect(() => parseGatewayConfig({ GATEWAY_AGENTS: value })).toThrow(/GATEWAY_AGENTS/);
  });

  it("validates the rate and the environment", () => {
    expect(parseGatewayConfig({ GATEWAY_RATE_PER_MINUTE: "60" }).ratePerMinute).toBe(60);
    expect(() => parseGatewayConfig({ GATEWAY_RATE_PER_MINUTE: "0" })).toThrow(/GATEWAY_RATE_PER_MINUTE/);
    expect(() => parseGatewayConfig({ GATEWAY_RATE_PER_MINUTE: "fast" })).toThrow(/GATEWAY_RATE_PER_MINUTE/);
    expect(parseGatewayConfig({ PLATFORM_ENV: "production" }).allowSandboxTestIds).toBe(false);
  });
});
