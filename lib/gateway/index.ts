/**
 * The agent gateway: `POST /query` routed to the claim, record, authorization and
 * notification agents, plus `GET /fhir/Patient/{id}` and `POST /fhir/Claim`, all authenticated by
 * gateway bearer tokens. Route files call `gateway()` and stay thin. See docs/apis.md ("Agent
 * gateway") and docs/decisions/022-gateway.md.
 */
import { getDb } from "@/lib/db";
import { gatewayConfig } from "./config";
import { createClaim, readPatient } from "./fhir";
import { handleQuery } from "./query";
import { runGateway, type GatewayDeps } from "./run";
import { gatewayOpenApiDocument } from "./openapi";
import { jsonResponse } from "@/lib/errors";

export { AGENT_ROLES, GatewayConfigError, agentNames, gatewayConfig, parseGatewayAgents, parseGatewayConfig, resolveAgent, type AgentRole, type GatewayConfig } from "./config";
export { gatewayTokenStrategy, runGateway, type GatewayContext, type GatewayDeps } from "./run";
export { AGENT_TASKS, GatewayQuerySchema } from "./query";
export { GATEWAY_CHANNEL, findSubmission, pipelineError, statusResult, submitGatewayClaim } from "./submissions";
// The MCP server (lib/mcp) speaks the same tasks through these (docs/decisions/095).
export { recordLookup, recordSummary } from "./record";
export { listNotifications } from "./notifications";
export { PORTAL_PATIENT_ID_SYSTEM } from "./fhir";

export { GATEWAY_ERROR_CODES, GATEWAY_SCHEMAS, gatewayOpenApiDocument } from "./openapi";

export interface Gateway {
  query(request: Request): Promise<Response>;
  /** GET /query/openapi.json (public: it holds no data). */
  openApi(request: Request): Promise<Response>;
  fhirPatient(request: Request, id: string): Promise<Response>;
  fhirClaim(request: Request): Promise<Response>;
}

export function createGateway(deps: GatewayDeps): Gateway {
  return {
    query: (request) => runGateway("gateway.query", "json", request, deps, (ctx) => handleQuery(ctx, request)),
    openApi: async () => jsonResponse(gatewayOpenApiDocument(deps.config()), 200, { "cache-control": "public, max-age=300" }),
    fhirPatient: (request, id) => runGateway("gateway.fhir.patient.read", "fhir", request, deps, (ctx) => readPatient(ctx, id)),
    fhirClaim: (request) => runGateway("gateway.fhir.claim.create", "fhir", request, deps, (ctx) => createClaim(ctx, request)),
  };
}

/** The process-wide gateway: the portal database, configuration from the environment. */
export function gateway(): Gateway {
  return createGateway({ db: getDb, config: gatewayConfig });
}
