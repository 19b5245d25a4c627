/**
 * lib/mcp: the agent gateway's MCP server (docs/decisions/095) — the Model Context Protocol over
 * its Streamable HTTP transport at `/mcp/{agent}`, on the protocol's official TypeScript SDK,
 * authenticated, rate-limited and audited by the gateway's kernel (lib/gateway `runGateway`).
 * Each agent role lists and calls only its tools. Route files call `mcp()` and stay thin.
 * See README.md here.
 */
import { getDatabase, type Database } from "@/lib/db";
import { env } from "@/lib/env";
import { jsonResponse } from "@/lib/errors";
import { gatewayConfig, runGateway, type GatewayConfig } from "@/lib/gateway";
import { lineWriter } from "@/lib/log";
import type { PortSource } from "@/lib/platform";
import { handleMcpPost } from "./server";

export { AGENT_KINDS, MCP_IDEMPOTENCY_SYSTEM, TOOLS, toolsFor, type McpContext, type ToolDef } from "./tools";
export { RESOURCE_TEMPLATES, SERVER_INFO, errorWords, jsonSchemaOf, listing } from "./server";
export { MCP_REFERENCE_PATH, mcpReference } from "./reference";

export interface McpDeps {
  database: () => Promise<Database>;
  config: () => GatewayConfig;
  /** The clinic's time zone (today's date for the worklists); default CLINIC_TIME_ZONE. */
  timeZone?: () => string;
  port?: PortSource;
  now?: () => Date;
  /** Default: the portal log; lines carry ids and codes only. */
  warn?: (line: string) => void;
}

export interface Mcp {
  /** Any request to /mcp/{agent}. */
  handle(request: Request, agent: string): Promise<Response>;
}

/** GET (a standing SSE stream) and DELETE (a session's end) need a session; this server keeps none. */
function notAllowed(): Response {
  // The catalogue's code for a 405 is not_found (lib/errors statusCode); the reason says which.
  return jsonResponse(
    { error: "not_found", message: "This MCP server is stateless: send JSON-RPC messages with POST (Streamable HTTP); it keeps no standing stream or session.", reason: "method_not_allowed" },
    405,
    { Allow: "POST" },
  );
}

export function createMcp(deps: McpDeps): Mcp {
  const warn = deps.warn ?? lineWriter("warn");
  const gatewayDeps = { db: async () => (await deps.database()).db, config: deps.config, now: deps.now, warn, port: deps.port };
  return {
    async handle(request, agent) {
      if (request.method !== "POST") return notAllowed();
      return runGateway("mcp", "json", request, gatewayDeps, async (ctx) =>
        handleMcpPost(ctx, request, agent, { database: await deps.database(), timeZone: (deps.timeZone ?? (() => env().CLINIC_TIME_ZONE))(), warn }),
      );
    },
  };
}

/** The process-wide MCP server: the portal database, configuration from the environment. */
export function mcp(): Mcp {
  return createMcp({ database: getDatabase, config: gatewayConfig });
}
