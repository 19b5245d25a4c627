import { z } from "zod";
import { errorBodySchema, jsonSchemaOf, schemaComponents } from "@/lib/api";
import { type ErrorCode } from "@/lib/errors";
import { ApiClaimAcknowledgementSchema } from "@/lib/submissions";
import { ClaimSchema, OperationOutcomeSchema } from "@/lib/fhir";
import { AGENT_ROLES, agentNames, resolveAgent, type GatewayConfig } from "./config";
import { AGENT_TASKS, GatewayQuerySchema } from "./query";

/** The catalogue codes the gateway answers with. */
export const GATEWAY_ERROR_CODES: ErrorCode[] = ["invalid_request", "unauthenticated", "not_found", "conflict", "payload_too_large", "unsupported_media_type", "unprocessable", "rate_limited", "internal", "unavailable"];

/** Every body the gateway's document names, as zod (the document is generated from them). */
export const GATEWAY_SCHEMAS = {
  Query: { schema: GatewayQuerySchema, io: "input" },
  QueryAnswer: {
    schema: z.strictObject({ agent: z.string(), role: z.enum(AGENT_ROLES), task: z.string(), result: z.unknown().meta({ description: "The task's result (see the task's description)." }) }),
    io: "output",
  },
  Error: { schema: errorBodySchema(GATEWAY_ERROR_CODES), io: "output" },
  Claim: { schema: ClaimSchema, io: "input" },
  ClaimResponse: { schema: ApiClaimAcknowledgementSchema, io: "input" },
  OperationOutcome: { schema: OperationOutcomeSchema, io: "input" },
} as const satisfies Record<string, { schema: z.ZodType; io: "input" | "output" }>;

const json = (name: keyof typeof GATEWAY_SCHEMAS) => ({ "application/json": { schema: { $ref: `#/components/schemas/${name}` } } });
const fhir = (name: keyof typeof GATEWAY_SCHEMAS) => ({ "application/fhir+json": { schema: { $ref: `#/components/schemas/${name}` } } });
const jsonError = (description: string) => ({ description, content: json("Error") });
const fhirError = (description: string) => ({ description, content: fhir("OperationOutcome") });

/** One `POST /query` body per agent task: agent names, the task, and `data` from the task's own zod schema. */
function taskBodies(config: GatewayConfig) {
  return AGENT_ROLES.flatMap((role) =>
    Object.entries(AGENT_TASKS[role]).map(([task, handler]) => ({
      title: `${role}.${task}`,
      type: "object",
      required: ["agent", "task"],
      properties: {
        agent: { type: "string", enum: agentNames(config).filter((name) => resolveAgent(config, name) === role) },
        task: { const: task },
        data: jsonSchemaOf(handler.schema, "input"),
      },
    })),
  );
}

/**
 * The OpenAPI 3.1 description of the agent gateway (served at GET /query/openapi.json): schemas and
 * every task's `data` generated from the zod schemas the gateway parses with (docs/decisions/033).
 */
export function gatewayOpenApiDocument(config: GatewayConfig, serverUrl = "/"): Record<string, unknown> {
  const common = {
    "401": jsonError("unauthenticated: a missing, unknown or revoked gateway token (WWW-Authenticate: Bearer)."),
    "429": jsonError("rate_limited: over the token's rate limit (Retry-After)."),
    "500": jsonError("internal: a fault of the portal; quote X-Request-ID."),
    "503": jsonError("unavailable: the gateway is misconfigured (GATEWAY_AGENTS)."),
  };
  const fhirCommon = {
    "401": fhirError("unauthenticated (WWW-Authenticate: Bearer)."),
    "429": fhirError("rate_limited (Retry-After)."),
    "500": fhirError("internal; quote X-Request-ID."),
    "503": fhirError("unavailable: the gateway is misconfigured."),
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Clinic Exchange — agent gateway",
      version: "1.0.0",
      description:
        "Automation agents (claim, record, authorization, notification) reach the portal with a gateway bearer token. Errors are the portal's error catalogue: JSON `{error, message, reason?, issues?}` on /query, OperationOutcome on /fhir. A replayed Claim (same token, same Claim.identifier) is answered 202 like the first time, with X-Idempotent-Replay: true.",
    },
    servers: [{ url: serverUrl }],
    security: [{ gatewayToken: [] }],
    paths: {
      "/query": {
        post: {
          operationId: "query",
          summary: "Run an agent task",
          requestBody: { required: true, content: { "application/json": { schema: { oneOf: taskBodies(config) } } } },
          responses: {
            "200": { description: "The task's result.", content: json("QueryAnswer") },
            "201": { description: "A visit list stored (record.visits): accepted and refused items by number, and the run when one was asked for.", content: json("QueryAnswer") },
            "202": { description: "A claim or authorization request accepted (also for a replay of the same identifier).", content: json("QueryAnswer") },
            "400": jsonError("invalid_request: not JSON, not {agent, task, data}, an unknown agent or task (`valid` lists them), a malformed Claim."),
            "404": jsonError("not_found: no such submission or patient."),
            "409": jsonError("conflict: a transition the submission does not allow."),
            "413": jsonError("payload_too_large."),
            "415": jsonError("unsupported_media_type: send application/json (or no Content-Type)."),
            "422": jsonError("unprocessable: data breaks a rule (`issues` names each field)."),
            ...common,
          },
        },
      },
      "/query/openapi.json": {
        get: { operationId: "openApi", summary: "This document", security: [], responses: { "200": { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } } } },
      },
      "/fhir/Patient/{id}": {
        get: {
          operationId: "readPatient",
          summary: "A registered patient by national ID / Iqama or portal id",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "A FHIR Patient.", content: { "application/fhir+json": { schema: { type: "object" } } } }, "404": fhirError("not_found."), ...fhirCommon },
        },
      },
      "/fhir/Claim": {
        post: {
          operationId: "createClaim",
          summary: "Submit a Claim (use claim or preauthorization)",
          requestBody: { required: true, content: fhir("Claim") },
          responses: {
            "202": { description: "Accepted (or replayed): a ClaimResponse naming the submission.", content: fhir("ClaimResponse") },
            "400": fhirError("invalid_request: malformed body or Claim."),
            "409": fhirError("conflict."),
            "413": fhirError("payload_too_large."),
            "415": fhirError("unsupported_media_type."),
            "422": fhirError("unprocessable: a rule (provider, national ID, identifier, total, missing element)."),
            ...fhirCommon,
          },
        },
      },
    },
    components: {
      securitySchemes: { gatewayToken: { type: "http", scheme: "bearer", description: "A gateway token (settings → API access)." } },
      // Generated from the zod schemas above (lib/api/openapi.ts, docs/decisions/033).
      schemas: schemaComponents(GATEWAY_SCHEMAS),
    },
  };
}
