import type { ClaimResponse, Resource } from "@medplum/fhirtypes";
import type { Db, SubmissionKind } from "@/lib/db";
import { claimProcessingStatus, isFhirReadError, isResourceOf, readClaimResponse, readReference, referenceId, type ClaimResponseView } from "@/lib/fhir";
import { metrics } from "@/lib/metrics";
import { applyPlatformNews, auditPipeline, decisionOf, findSubmissionByRequest, type PlatformStatus, type ReadResponse } from "@/lib/submissions";
import { reschedule } from "@/lib/submissions";

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null) : []);

/**
 * Everything the platform sends the clinic on its own initiative — a late ClaimResponse, a payer's
 * CommunicationRequest, a PaymentReconciliation, the acknowledgement of a Communication — enters
 * here, whichever way it came: a poll reply in the messaging protocol, a webhook (then a read) in
 * REST. One handler per resource type; the pipeline's own handler is the ClaimResponse one below.
 * Other areas (information requests, payments) pass theirs to `startPipeline({ inbound })`
 * from the composition root (lib/server/boot.ts), so lib/pipeline does not depend on them.
 */
export interface InboundContext {
  db: Db;
  clock: () => Date;
  pollAfterMs: number;
  log: (message: string) => void;
  /** How it arrived. */
  source: "poll" | "webhook";
  /** The message event (`communication-request`, `payment-reconciliation`, …) when it came in a message. */
  event?: string;
  /** The message Bundle id or the webhook id: what the timeline and audit cite. */
  messageId?: string;
  /** The inbox row the message is stored in (lib/inbox): what a handler that keeps a reference to the message cites. */
  inboxId?: string;
}

/**
 * `applied`: something changed (a status, a new request, a new remittance); `unchanged`: already
 * known (a repeat — every handler must be idempotent: the exchange and webhooks may deliver twice);
 * `unrouted`: nothing here it belongs to (an unknown claim) or a type no handler reads.
 */
export type InboundResult = "applied" | "unchanged" | "unrouted";

/** The resource as received (read it with the lib/fhir readers: any valid R4 must be understood). */
export type InboundHandler = (context: InboundContext, resource: Record<string, unknown>) => Promise<InboundResult>;

/**
 * Handlers by `resourceType`: one, or several tried in order — the first answer other than
 * `unrouted` wins (e.g. `ClaimResponse: [claimResponseInbound, advancedAuthorizationInbound]`).
 */
export type InboundHandlers = Partial<Record<Resource["resourceType"], InboundHandler | readonly InboundHandler[]>>;

function handlersOf(handlers: InboundHandlers, type: string): readonly InboundHandler[] {
  const entry = (handlers as Record<string, InboundHandler | readonly InboundHandler[] | undefined>)[type];
  return entry === undefined ? [] : typeof entry === "function" ? [entry] : entry;
}

/** Tables of handlers joined: per type, the first table's handlers first (the pipeline's own before the areas'). */
export function combineInbound(...tables: (InboundHandlers | undefined)[]): InboundHandlers {
  const out: Record<string, InboundHandler[]> = {};
  for (const table of tables) {
    if (!table) continue;
    for (const type of Object.keys(table)) (out[type] ??= []).push(...handlersOf(table, type));
  }
  return out as InboundHandlers;
}

/**
 * The submission a ClaimResponse (or anything else that names a Claim) is about: by the platform
 * id when it names one we stored, else by our business identifier — the national exchange names
 * our claim by identifier only, and the platform id may never have been given (decision 073).
 * The platform id the reference names comes back with the row (lib/submissions
 * `findSubmissionByRequest`).
 */
export async function submissionForRequest(
  db: Db,
  request: ReturnType<typeof readReference>,
): Promise<{ id: string; kind: SubmissionKind; platformId?: string } | undefined> {
  const platformId = referenceId(request, "Claim");
  const row = await findSubmissionByRequest(db, { ...(platformId ? { platformId } : {}), ...(request?.identifier ? { identifier: request.identifier } : {}) });
  return row ? { ...row, ...(platformId ? { platformId } : {}) } : undefined;
}

/** A ClaimResponse the platform sent late (pended, then decided): the same transitions, timeline and live events as every other source. */
export const claimResponseInbound: InboundHandler = async (context, resource) => {
  if (!isResourceOf<ClaimResponse>(resource, "ClaimResponse")) return "unrouted";
  // The one reading of this answer (docs/decisions/078): its view travels to apply and the screen.
  const read = readOnce(resource);
  const request = read?.view.request ?? readReference(resource.request);
  const row = await submissionForRequest(context.db, request);
  if (!row) {
    context.log(`[inbound] a ${context.event ?? "ClaimResponse"} for a claim this portal does not know`);
    return "unrouted";
  }
  const decision = decisionOf(read?.view);
  const status: PlatformStatus = decision ?? (claimProcessingStatus(resource) as PlatformStatus | undefined) ?? "pended";
  const applied = await applyPlatformNews({ db: context.db, clock: context.clock, pollAfterMs: context.pollAfterMs }, row.id, {
    status,
    ...(row.platformId ? { platformId: row.platformId } : {}),
    response: decision ? read : undefined,
    source: context.source,
    detail: { event: context.event, platformStatus: status, ...(context.messageId ? { messageId: context.messageId } : {}) },
  });
  metrics().polls.inc({ result: applied.result === "applied" ? "changed" : "unchanged" });
  if (applied.result !== "applied") return "unchanged";
  await auditPipeline(context.db, context.source === "poll" ? "poller" : "platform-webhook", "submission.status", row, "success", { status, messageId: context.messageId }, context.log);
  return "applied";
};

/** A received ClaimResponse with the reader's view; undefined when it is not R4 (then it decides nothing). */
function readOnce(resource: ClaimResponse): ReadResponse | undefined {
  try {
    return readClaimResponse(resource) as { raw: ClaimResponse; view: ClaimResponseView };
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}

/**
 * A status-check answer or a cancel answer that arrives by poll (the exchange may queue one when
 * the payer answered late): a status check makes the named submission due for a follow-up at once
 * (the outbox asks the exchange and applies the answer with its ClaimResponse); anything else —
 * a cancel-response, a Task about a claim not known here — is `unrouted`, so the inbox keeps it
 * and shows it to billing (docs/decisions/096: never dropped).
 */
export const taskInbound: InboundHandler = async (context, resource) => {
  if (resource.resourceType !== "Task") return "unrouted";
  const code = list((resource.code as { coding?: unknown } | undefined)?.coding).find((c) => typeof c.code === "string")?.code;
  if (code !== "status" && context.event !== "status-check-response") return "unrouted";
  const row = await submissionForRequest(context.db, readReference(resource.focus));
  if (!row) return "unrouted";
  const due = await reschedule(context.db, row.id, { nextAttemptAt: context.clock(), releaseLease: true }, { statuses: ["sent", "pended"] });
  return due ? "applied" : "unchanged";
};

export const PIPELINE_INBOUND: InboundHandlers = { ClaimResponse: claimResponseInbound, Task: taskInbound };

/** Routes one resource to its handlers in order; a type nobody reads, or that every handler leaves, is `unrouted` (logged by type only, never content). */
export async function routeInbound(handlers: InboundHandlers, context: InboundContext, resource: Record<string, unknown>): Promise<InboundResult> {
  const type = typeof resource.resourceType === "string" ? resource.resourceType : "";
  const chain = handlersOf(handlers, type);
  if (chain.length === 0) {
    context.log(`[inbound] a ${type || "resource"} (${context.event ?? "no event"}) has no handler; kept in the inbox`);
    return "unrouted";
  }
  for (const handler of chain) {
    const result = await handler(context, resource);
    if (result !== "unrouted") return result;
  }
  return "unrouted";
}
