import { z } from "zod";
import type { SubmissionKind } from "@/lib/db";
import { agentNames, resolveAgent, type AgentRole } from "./config";
import { readJsonObject } from "@/lib/api";
import { AppError, issuePath, jsonResponse } from "@/lib/errors";
import { acknowledgeDataSchema, acknowledgeNotifications, listDataSchema, listNotifications } from "./notifications";
import { lookupDataSchema, recordLookup, recordSummary, recordVisits, recordVisitsStatus, summaryDataSchema, visitsDataSchema, visitsStatusDataSchema } from "./record";
import type { GatewayContext } from "./run";
import { cancelDataSchema, findSubmission, pipelineError, statusDataSchema, statusResult, submitGatewayClaim, submittedResult } from "./submissions";
import { cancelFailure, cancelSubmission, checkSubmissionStatus, statusCheckFailure } from "@/lib/cancellation";

/** The body of `POST /query` (platform spec, "Gateway task body"). */
export const GatewayQuerySchema = z.object({
  agent: z.string().min(1).max(100),
  task: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});

interface TaskResult {
  status: number;
  result: unknown;
}

interface Task {
  /** Validates `data`; failures are answered 422 `invalid_data`. */
  schema: z.ZodType;
  run(ctx: GatewayContext, data: never, agentName: string): Promise<TaskResult>;
}

const claimData = z.object({ claim: z.unknown() });

function submitTask(kind: SubmissionKind): Task {
  return {
    schema: claimData,
    async run(ctx, data: z.infer<typeof claimData>, agentName) {
      const { submission, replay, status } = await submitGatewayClaim(ctx, data.claim, kind, "data.claim");
      return { status, result: submittedResult(submission, replay, agentName) };
    },
  };
}

/** The caller's submission of `kind` by id or identifier (404 otherwise), as the audit's target. */
async function located(ctx: GatewayContext, kind: SubmissionKind, data: { submissionId?: string; identifier?: string }) {
  const submission = await findSubmission(ctx, kind, data);
  if (!submission) throw new AppError("not_found", kind === "claim" ? "No claim with this id or identifier." : "No authorization request with this id or identifier.");
  ctx.audit.target = { type: "submission", id: submission.id };
  return submission;
}

function statusTask(kind: SubmissionKind): Task {
  return {
    schema: statusDataSchema,
    async run(ctx, data: z.infer<typeof statusDataSchema>) {
      const submission = await located(ctx, kind, data);
      ctx.audit.details.submissionStatus = submission.status;
      return { status: 200, result: await statusResult(ctx.db, submission) };
    },
  };
}

/** Decision 046: the caller of a cancellation or status check made by a gateway token. */
const machineCaller = (ctx: GatewayContext) => ({ actor: ctx.actor, userId: `gateway-token:${ctx.token.id}`, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) });

/** Decision 046: cancel (authorization, claim in process) or nullify (decided claim) with the exchange's reason. */
function cancelTask(kind: SubmissionKind): Task {
  return {
    schema: cancelDataSchema,
    async run(ctx, data: z.infer<typeof cancelDataSchema>) {
      const submission = await located(ctx, kind, data);
      ctx.audit.details.reason = data.reason;
      const result = await cancelSubmission({ db: ctx.db, port: ctx.port, providerOrgId: ctx.config.providerOrgId }, machineCaller(ctx), { id: submission.id, reason: data.reason, kinds: [kind] });
      if (!result.ok) throw cancelFailure(result, submission);
      return { status: 200, result: { submissionId: submission.id, cancelled: result.done, status: result.status, ...(!result.done && result.reason ? { platformReason: result.reason } : {}) } };
    },
  };
}

/** Decision 046: status check on demand — what the platform says now against what the portal believes. */
function checkTask(kind: SubmissionKind): Task {
  return {
    schema: statusDataSchema,
    async run(ctx, data: z.infer<typeof statusDataSchema>) {
      const submission = await located(ctx, kind, data);
      const result = await checkSubmissionStatus({ db: ctx.db, port: ctx.port, providerOrgId: ctx.config.providerOrgId }, machineCaller(ctx), { id: submission.id, kinds: [kind] });
      if (!result.ok) throw statusCheckFailure(result);
      return { status: 200, result: { submissionId: submission.id, ...result.check } };
    },
  };
}

/** Every agent role and its tasks. */
export const AGENT_TASKS: Record<AgentRole, Record<string, Task>> = {
  claim: { submit: submitTask("claim"), status: statusTask("claim"), cancel: cancelTask("claim"), check: checkTask("claim") },
  authorization: { request: submitTask("preauthorization"), status: statusTask("preauthorization"), cancel: cancelTask("preauthorization"), check: checkTask("preauthorization") },
  record: {
    lookup: {
      schema: lookupDataSchema,
      async run(ctx, data: z.infer<typeof lookupDataSchema>) {
        const result = await recordLookup(ctx.db, data, ctx.config.allowSandboxTestIds);
        ctx.audit.details.found = result.found;
        if (result.patient) ctx.audit.target = { type: "patient", id: result.patient.patientId };
        return { status: 200, result };
      },
    },
    summary: {
      schema: summaryDataSchema,
      async run(ctx, data: z.infer<typeof summaryDataSchema>) {
        const result = await recordSummary(ctx.db, data, ctx.config.allowSandboxTestIds);
        ctx.audit.target = { type: "patient", id: result.patient.patientId };
        return { status: 200, result };
      },
    },
    // Eligibility ahead of the visit (docs/decisions/044): the same visit list as the exchange API.
    visits: {
      schema: visitsDataSchema,
      async run(ctx, data: z.infer<typeof visitsDataSchema>) {
        const result = await recordVisits(ctx.db, data, { allowSandboxTestIds: ctx.config.allowSandboxTestIds, tokenId: ctx.token.id, tokenName: ctx.token.name, now: ctx.now });
        ctx.audit.target = { type: "visit_list", id: result.listId };
        ctx.audit.details.accepted = result.accepted;
        ctx.audit.details.rejected = result.rejected;
        return { status: 201, result };
      },
    },
    visitsStatus: {
      schema: visitsStatusDataSchema,
      async run(ctx, data: z.infer<typeof visitsStatusDataSchema>) {
        const result = await recordVisitsStatus(ctx.db, data);
        ctx.audit.target = { type: "visit_list", id: data.listId };
        return { status: 200, result };
      },
    },
  },
  notification: {
    list: {
      schema: listDataSchema,
      async run(ctx, data: z.infer<typeof listDataSchema>) {
        const result = await listNotifications(ctx.db, ctx.token.id, data);
        ctx.audit.details.events = result.events.length;
        return { status: 200, result };
      },
    },
    acknowledge: {
      schema: acknowledgeDataSchema,
      async run(ctx, data: z.infer<typeof acknowledgeDataSchema>) {
        const result = await acknowledgeNotifications(ctx.db, ctx.token.id, data);
        // This audit entry IS the stored acknowledgement (see notifications.ts).
        ctx.audit.details.acknowledgedUpTo = result.acknowledgedUpTo;
        return { status: 200, result };
      },
    },
  },
};

/** The body of POST /query, after authentication: route to the agent's task. */
export async function handleQuery(ctx: GatewayContext, request: Request): Promise<Response> {
  // The record agent's visit lists check their items' dates one by one (lib/visits), like a CSV.
  const body = await readJsonObject(request, { maxBytes: ctx.config.maxBodyBytes, itemDates: /^data\.visits\[\d+\]\.(serviceDate|birthDate)$/ });
  const envelope = GatewayQuerySchema.safeParse(body);
  if (!envelope.success) {
    throw new AppError("invalid_request", "The body must be {agent, task, data} with agent and task as strings and data an object.", {
      reason: "invalid_body",
      fields: envelope.error.issues.slice(0, 20).map((i) => ({ path: issuePath("", i.path), message: i.message })),
    });
  }
  const { agent, task, data } = envelope.data;
  const role = resolveAgent(ctx.config, agent);
  if (!role) {
    ctx.audit.details.agent = agent.slice(0, 64);
    throw new AppError("invalid_request", `Unknown agent "${agent.slice(0, 64)}".`, { reason: "unknown_agent", extra: { valid: agentNames(ctx.config) } });
  }
  ctx.audit.details.agent = agent;
  const tasks = AGENT_TASKS[role];
  const handler = Object.hasOwn(tasks, task) ? tasks[task] : undefined;
  if (!handler) {
    ctx.audit.action = `gateway.${role}`;
    throw new AppError("invalid_request", `Unknown task "${task.slice(0, 64)}" for the ${role} agent.`, { reason: "unknown_task", extra: { valid: Object.keys(tasks) } });
  }
  ctx.audit.action = `gateway.${role}.${task}`;
  const parsed = handler.schema.safeParse(data);
  if (!parsed.success) {
    throw new AppError("unprocessable", `data does not fit the ${role} agent's ${task} task.`, {
      reason: "invalid_data",
      fields: parsed.error.issues.slice(0, 20).map((i) => ({ path: issuePath("data", i.path), message: i.message })),
    });
  }
  let outcome: TaskResult;
  try {
    outcome = await handler.run(ctx, parsed.data as never, agent);
  } catch (error) {
    throw pipelineError(error) ?? error;
  }
  return jsonResponse({ agent, role, task, result: outcome.result }, outcome.status);
}
