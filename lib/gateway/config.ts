import { AGENT_ROLES, ConfigError, env, parseEnv, readGatewayAgents, type AgentRole, type Env } from "@/lib/env";
import { GATEWAY_BODY_LIMIT_BYTES } from "@/lib/http";

/**
 * The agent gateway's view of the configuration (GATEWAY_AGENTS, GATEWAY_RATE_PER_MINUTE,
 * PROVIDER_ORG_ID, PLATFORM_ENV: declared and validated in lib/env.ts, so a bad value stops the
 * start and names the variable).
 */

export { AGENT_ROLES, type AgentRole };

export interface GatewayConfig {
  /** Brand name → role, as configured in GATEWAY_AGENTS (role names are always accepted too). */
  brands: ReadonlyMap<string, AgentRole>;
  /** Requests per token per minute. */
  ratePerMinute: number;
  /** The clinic's Organization id at the platform (`provider` of every Claim). */
  providerOrgId: string;
  /** Sandbox test identities (1000000000–1000000099) are accepted only in the sandbox. */
  allowSandboxTestIds: boolean;
  /** PLATFORM_PROTOCOL: how the portal speaks to the platform (messaging refuses CPT lines). */
  protocol: "rest" | "messaging";
  /** Largest request body accepted (bytes). Claims may carry base64 attachments. */
  maxBodyBytes: number;
}

/** The configuration's one error type, under the name the gateway's callers know. */
export { ConfigError as GatewayConfigError };

export function isAgentRole(value: string): value is AgentRole {
  return (AGENT_ROLES as readonly string[]).includes(value);
}

/** GATEWAY_AGENTS alone: brand → role (throws ConfigError naming the variable on a bad value). */
export function parseGatewayAgents(value: string | undefined): Map<string, AgentRole> {
  const { brands, problems } = readGatewayAgents(value);
  if (problems.length) throw new ConfigError(`GATEWAY_AGENTS: ${problems.join("; ")}`);
  return brands;
}

export function gatewayConfigFrom(e: Env): GatewayConfig {
  return {
    brands: e.GATEWAY_AGENTS,
    ratePerMinute: e.GATEWAY_RATE_PER_MINUTE,
    providerOrgId: e.PROVIDER_ORG_ID,
    allowSandboxTestIds: e.PLATFORM_ENV === "sandbox",
    protocol: e.PLATFORM_PROTOCOL,
    maxBodyBytes: GATEWAY_BODY_LIMIT_BYTES,
  };
}

/** For tests: the view of a given set of variables (throws ConfigError naming a bad one). */
export function parseGatewayConfig(source: Record<string, string | undefined>): GatewayConfig {
  return gatewayConfigFrom(parseEnv(source));
}

/** Every name a caller may use, brands first (for 400 answers and the settings page). */
export function agentNames(config: GatewayConfig): string[] {
  return [...config.brands.keys(), ...AGENT_ROLES];
}

/** Brand or role name → role; exact, case-sensitive match. */
export function resolveAgent(config: GatewayConfig, name: string): AgentRole | undefined {
  if (isAgentRole(name)) return name;
  return config.brands.get(name);
}

/** The configuration of this process. */
export function gatewayConfig(): GatewayConfig {
  return gatewayConfigFrom(env());
}
