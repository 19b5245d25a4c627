import { GATEWAY_BODY_LIMIT_BYTES } from "@/lib/http/limits";
/**
 * Settings of the agent gateway, read from the environment here (kept in this folder, like the
 * other machine interfaces). A bad value throws GatewayConfigError naming the variable.
 */

export const AGENT_ROLES = ["claim", "record", "authorization", "notification"] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export interface GatewayConfig {
  /** Brand name → role, as configured in GATEWAY_AGENTS (role names are always accepted too). */
  brands: ReadonlyMap<string, AgentRole>;
  /** Requests per token per minute. */
  ratePerMinute: number;
  /** The clinic's Organization id at the platform (`provider` of every Claim). */
  providerOrgId: string;
  /** Sandbox test identities (1000000000–1000000099) are accepted only in the sandbox. */
  allowSandboxTestIds: boolean;
  /** Largest request body accepted (bytes). Claims may carry base64 attachments. */
  maxBodyBytes: number;
}

export class GatewayConfigError extends Error {
  override name = "GatewayConfigError";
}

const BRAND = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export function isAgentRole(value: string): value is AgentRole {
  return (AGENT_ROLES as readonly string[]).includes(value);
}

/**
 * `GATEWAY_AGENTS="ClaimLinc=claim,RecordLinc=record,AuthLinc=authorization,NotifyLinc=notification"`:
 * comma-separated `Brand=role` pairs. Several brands may name one role; a brand may not be given
 * twice, may not be a role name, and must be a plain name (letter first, then letters, digits, `_.-`).
 */
export function parseGatewayAgents(value: string | undefined): Map<string, AgentRole> {
  const brands = new Map<string, AgentRole>();
  if (value === undefined || value.trim() === "") return brands;
  const problems: string[] = [];
  for (const raw of value.split(",")) {
    const pair = raw.trim();
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (eq < 0) {
      problems.push(`"${pair}" is not Brand=role`);
      continue;
    }
    const brand = pair.slice(0, eq).trim();
    const role = pair.slice(eq + 1).trim();
    if (!BRAND.test(brand)) problems.push(`"${brand}" is not a valid agent name (letter first, then letters, digits, _ . -; at most 64)`);
    else if (isAgentRole(brand)) problems.push(`"${brand}" is a role name; role names are always accepted and cannot be remapped`);
    else if (brands.has(brand)) problems.push(`"${brand}" is given twice`);
    if (!isAgentRole(role)) problems.push(`"${role}" is not a role (one of ${AGENT_ROLES.join(", ")})`);
    if (problems.length === 0) brands.set(brand, role as AgentRole);
  }
  if (problems.length) throw new GatewayConfigError(`GATEWAY_AGENTS: ${problems.join("; ")}`);
  return brands;
}

function positiveInt(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1 || n > max) throw new GatewayConfigError(`${name}: expected a whole number from 1 to ${max}, got "${value}"`);
  return n;
}

export function parseGatewayConfig(source: Record<string, string | undefined>): GatewayConfig {
  const providerOrgId = (source.PROVIDER_ORG_ID ?? "").trim() || "clinic-001";
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(providerOrgId)) throw new GatewayConfigError(`PROVIDER_ORG_ID: "${providerOrgId}" is not a valid Organization id`);
  const platformEnv = (source.PLATFORM_ENV ?? "").trim() || "sandbox";
  return {
    brands: parseGatewayAgents(source.GATEWAY_AGENTS),
    ratePerMinute: positiveInt("GATEWAY_RATE_PER_MINUTE", source.GATEWAY_RATE_PER_MINUTE, 300, 100_000),
    providerOrgId,
    allowSandboxTestIds: platformEnv === "sandbox",
    maxBodyBytes: GATEWAY_BODY_LIMIT_BYTES,
  };
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

let cached: GatewayConfig | undefined;

/** The configuration from process.env, parsed once (throws GatewayConfigError on a bad value). */
export function gatewayConfig(): GatewayConfig {
  cached ??= parseGatewayConfig(process.env);
  return cached;
}
