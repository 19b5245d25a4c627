import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isUuid } from "@/lib/ids";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readJsonObject } from "@/lib/api";
import type { Database } from "@/lib/db";
import { AppError, isAppError } from "@/lib/errors";
import { agentNames, pipelineError, recordSummary, resolveAgent, statusResult, type AgentRole, type GatewayContext } from "@/lib/gateway";
import { describeError } from "@/lib/http";
import { getPatient } from "@/lib/patients";
import { AGENT_KINDS, toolsFor, type McpContext, type ToolDef } from "./tools";
import { findSubmission } from "@/lib/gateway";

/** What the server says about itself in `initialize`. */
export const SERVER_INFO = { name: "clinic-exchange", title: "Clinic Exchange", version: "1.0.0" } as const;

const INSTRUCTIONS: Record<AgentRole, string> = {
  record: "You are the clinic's record agent: find patients, check eligibility before visits, estimate what patients pay, and read the visits-ahead worklist.",
  authorization:
    "You are the clinic's authorization agent: find the patient, check eligibility, request prior authorizations, wait for the payer's decision, and answer the payer's information requests.",
  claim: "You are the clinic's claim agent: submit claims (the scrubber checks them first), follow their status and decision, work the denials queue, and answer the payer's information requests.",
  notification: "You are the clinic's notification agent: read status changes of authorization requests and claims, and wait for decisions.",
};

/** JSON Schema of a tool's input or output (draft-07, what the SDK's client validates with). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** A tool as tools/list shows it. */
export function listing(def: ToolDef): Tool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: jsonSchemaOf(def.input, "input") as Tool["inputSchema"],
    outputSchema: jsonSchemaOf(def.output, "output") as Tool["outputSchema"],
    annotations: { title: def.title, readOnlyHint: def.readOnly, destructiveHint: false, idempotentHint: def.readOnly || Boolean(def.creates), openWorldHint: false },
    _meta: { "clinic-exchange/ar": { title: def.titleAr, description: def.descriptionAr } },
  };
}

/** An AppError in words an agent can act on: the message, then one line per field. */
export function errorWords(error: AppError): string {
  const lines = [error.message];
  for (const f of error.fields) lines.push(`- ${f.path.replace(/^data\./, "") || "(arguments)"}: ${f.message}`);
  return lines.join("\n");
}

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] });

/** Resource URIs (read-only). */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "clinic-exchange://patients/{patientId}/coverages",
    name: "patient-coverages",
    title: "A patient's coverages",
    description: "The patient's insurance coverages registered in the portal (coverageId, platformCoverageId, insurer).",
    mimeType: "application/json",
    roles: ["record", "authorization", "claim"] as readonly AgentRole[],
  },
  {
    uriTemplate: "clinic-exchange://submissions/{submissionId}/timeline",
    name: "submission-timeline",
    title: "A submission's timeline",
    description: "Every status change of an authorization request or claim, with its source and time (UTC).",
    mimeType: "application/json",
    roles: ["authorization", "claim", "notification"] as readonly AgentRole[],
  },
] as const;

const PATIENT_URI = /^clinic-exchange:\/\/patients\/([^/]+)\/coverages$/;
const SUBMISSION_URI = /^clinic-exchange:\/\/submissions\/([^/]+)\/timeline$/;
/** The protocol's "resource not found" (same answer for what exists but this agent may not read). */
const RESOURCE_NOT_FOUND = -32002;

export interface CallSetup {
  role: AgentRole;
  agentName: string;
  database: Database;
  timeZone: string;
  warn: (line: string) => void;
}

/** One MCP server for one HTTP request of one agent: its tools, its resources, the gateway's call. */
export function buildServer(ctx: GatewayContext, setup: CallSetup): Server {
  const { role } = setup;
  const tools = toolsFor(role);
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, logging: {} }, instructions: INSTRUCTIONS[role] });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(listing) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const def = tools.find((t) => t.name === request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name.slice(0, 64)}" for the ${role} agent; tools/list shows the tools it may call.`);
    const parsed = def.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      ctx.audit.details.toolError = "invalid_arguments";
      const lines = parsed.error.issues.slice(0, 20).map((i) => `- ${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`);
      return toolError([`The arguments do not fit ${def.name}; nothing was done. Fix:`, ...lines].join("\n"));
    }
    const progressToken = request.params._meta?.progressToken;
    const call: McpContext = Object.assign(Object.create(ctx) as GatewayContext, {
      role,
      agentName: setup.agentName,
      database: setup.database,
      timeZone: setup.timeZone,
      kinds: AGENT_KINDS[role],
      signal: extra.signal,
      notify: async (message: { level: "info"; data: Record<string, unknown> }) => {
        await extra.sendNotification({ method: "notifications/message", params: { level: message.level, logger: "submission", data: message.data } });
      },
      progress: async (progress: number, total: number | undefined, text: string) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, ...(total !== undefined ? { total } : {}), message: text } });
      },
    });
    try {
      const output = (await def.run(call, parsed.data)) as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      const known = isAppError(error) ? error : pipelineError(error);
      if (known) {
        ctx.audit.details.toolError = known.reason ?? known.code;
        return toolError(errorWords(known));
      }
      // Name and code only: a failed query's message quotes its parameters (patient data).
      setup.warn(`[mcp] ${def.name} failed, request ${ctx.requestId}: ${describeError(error)}`);
      ctx.audit.details.toolError = "internal";
      return toolError(`Internal error; nothing more is known here. Quote request id ${ctx.requestId}.`);
    }
  });

  const templates = RESOURCE_TEMPLATES.filter((t) => t.roles.includes(role));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: templates.map(({ roles: _roles, ...t }) => t),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const notFound = () => new McpError(RESOURCE_NOT_FOUND, "No such resource for this agent.", { uri: uri.slice(0, 200) });
    const patient = PATIENT_URI.exec(uri);
    if (patient && isUuid(patient[1]) && templates.some((t) => t.name === "patient-coverages")) {
      const row = await getPatient(ctx.db, patient[1]!.toLowerCase());
      if (!row) throw notFound();
      ctx.audit.target = { type: "patient", id: row.id };
      const summary = await recordSummary(ctx.db, { patientId: row.id }, ctx.config.allowSandboxTestIds);
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ patientId: row.id, coverages: summary.coverages }) }] };
    }
    const submission = SUBMISSION_URI.exec(uri);
    if (submission && isUuid(submission[1]) && templates.some((t) => t.name === "submission-timeline")) {
      for (const kind of AGENT_KINDS[role]) {
        const found = await findSubmission(ctx, kind, { submissionId: submission[1]!.toLowerCase() });
        if (!found) continue;
        ctx.audit.target = { type: "submission", id: found.id };
        const status = await statusResult(ctx.db, found);
        return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ submissionId: found.id, kind: found.kind, status: found.status, timeline: status.timeline }) }] };
      }
    }
    throw notFound();
  });
  return server;
}

/** The audit action of a JSON-RPC message: `mcp.<role>.<tool>` for a tool call, `mcp.<role>.<method>` otherwise. */
function actionOf(role: AgentRole, body: Record<string, unknown>): { action: string; tool?: ToolDef } {
  const method = typeof body.method === "string" ? body.method : "response";
  if (method === "tools/call") {
    const name = (body.params as { name?: unknown } | undefined)?.name;
    const tool = toolsFor(role).find((t) => t.name === name);
    return { action: `mcp.${role}.${tool ? tool.name : "unknown_tool"}`, tool };
  }
  return { action: `mcp.${role}.${/^[a-z/_]{1,40}$/i.test(method) ? method : "other"}` };
}

/**
 * POST /mcp/{agent}: one JSON-RPC message through the gateway's kernel (the caller already passed
 * token, rate bucket and configuration checks). Stateless Streamable HTTP: a new server and
 * transport per request, JSON answers, except a streaming tool (wait_for_decision), answered as
 * Server-Sent Events carrying its notifications.
 */
export async function handleMcpPost(ctx: GatewayContext, request: Request, agent: string, setup: Omit<CallSetup, "role" | "agentName">): Promise<Response> {
  const role = resolveAgent(ctx.config, agent);
  if (!role) {
    ctx.audit.details.agent = agent.slice(0, 64);
    throw new AppError("not_found", `Unknown agent "${agent.slice(0, 64)}": connect to /mcp/<agent>.`, { reason: "unknown_agent", extra: { valid: agentNames(ctx.config) } });
  }
  ctx.audit.details.agent = agent;
  // A tool's own schema checks the dates in its arguments, so that a wrong one is a tool error in words.
  const body = await readJsonObject(request, { maxBytes: ctx.config.maxBodyBytes, itemDates: /^params\.arguments\./ });
  const { action, tool } = actionOf(role, body);
  ctx.audit.action = action;
  if (tool?.streams) {
    // The answer streams after the kernel wrote its audit entry: name the target now.
    const id = ((body.params as { arguments?: { submissionId?: unknown } } | undefined)?.arguments?.submissionId ?? "") as unknown;
    if (isUuid(id)) ctx.audit.target = { type: "submission", id: id.toLowerCase() };
  }
  const server = buildServer(ctx, { ...setup, role, agentName: agent });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !tool?.streams });
  await server.connect(transport);
  const response = await transport.handleRequest(request, { parsedBody: body });
  if (!tool?.streams) await server.close();
  return response;
}
